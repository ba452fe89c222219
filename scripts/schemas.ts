/**
 * Writes schemas/config.schema.json from the agent registry and the parser's defaults
 * (engine/src/adapters/configSchema.ts). Run it after changing an agent's entry:
 * `npm run schemas`; a test fails while the committed file differs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchemaText } from '../engine/src/adapters/configSchema';

const file = join(__dirname, '..', 'schemas', 'config.schema.json');
writeFileSync(file, configSchemaText());
process.stdout.write(`wrote ${file}\n`);
