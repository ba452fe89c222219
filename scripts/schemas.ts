/**
 * Writes what is generated from the agent registry (engine/src/adapters/configSchema.ts):
 * schemas/config.schema.json and the table of run keys in docs/format.md. Run it after changing
 * an agent's entry: `npm run schemas`; a test fails while either committed file differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchemaText, withRunKeysTable } from '../engine/src/adapters/configSchema';

const root = join(__dirname, '..');
const schema = join(root, 'schemas', 'config.schema.json');
writeFileSync(schema, configSchemaText());
process.stdout.write(`wrote ${schema}\n`);

const reference = join(root, 'docs', 'format.md');
const updated = withRunKeysTable(readFileSync(reference, 'utf8'));
if (updated === undefined) throw new Error(`${reference} has lost its run-keys markers; put them back around the table of run keys.`);
writeFileSync(reference, updated);
process.stdout.write(`wrote the run keys of ${reference}\n`);
