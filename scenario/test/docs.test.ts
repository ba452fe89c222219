import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MANIFEST_KEYS } from '../src';

/** Every property name a JSON schema declares, at any depth (the names of `definitions` are not keys). */
function schemaKeys(node: unknown, out = new Set<string>()): Set<string> {
  if (typeof node !== 'object' || node === null) return out;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) for (const name of Object.keys(value)) out.add(name);
    schemaKeys(value, out);
  }
  return out;
}

test('docs/format.md names every key of the benchmark.json and config.jsonc schemas', () => {
  const root = join(__dirname, '..', '..');
  const reference = readFileSync(join(root, 'docs', 'format.md'), 'utf8');
  for (const file of ['benchmark.schema.json', 'config.schema.json']) {
    const keys = schemaKeys(JSON.parse(readFileSync(join(root, 'schemas', file), 'utf8')));
    assert.ok(keys.size > 5, `${file} has keys`);
    const missing = [...keys].filter(
      (key) => !reference.includes(`\`${key}\``) && !new RegExp(`\`\\w+\\.${key.replace('$', '\\$')}\``).test(reference),
    );
    assert.deepEqual(missing, [], `docs/format.md misses keys of ${file}`);
  }
  for (const key of MANIFEST_KEYS) assert.ok(reference.includes(`| \`${key}\` |`), `the benchmark.json table has a row for ${key}`);
});
