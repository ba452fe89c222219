/**
 * config.jsonc is read once, the same way, by `mmb check` and `mmb run` (issue 28, item 8): a
 * key given twice at any level, two byte order marks, UTF-16 and bytes that are not UTF-8 are each
 * refused by both, with the same one line (position, code, message), through the built CLI.
 * Before, two BOMs were "not JSON" to `mmb check` and played by `mmb run`, and a second
 * `"persona"` silently won in both.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { mmb, workspace } from './helpers';

const RUN = '"runs": { "a": { "benchmark": "starter", "agent": "chatbot" } }';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The diagnostic part of a line (`1:3 invalid-config …`), which check (`file:L:C error code …`) and run (`mmb: file:L:C code …`) share. */
function checkLines(stdout: string): string[] {
  return [...stdout.matchAll(/^config\.jsonc:(\d+:\d+) error (\S+ .*)$/gm)].map((m) => `${m[1]} ${m[2]}`);
}

function runLines(stderr: string): string[] {
  return [...stderr.matchAll(/^(?:mmb: )?config\.jsonc:(\d+:\d+) (\S+ .*)$/gm)].map((m) => `${m[1]} ${m[2]}`);
}

const CASES: [string, Buffer, RegExp][] = [
  [
    '"persona" twice',
    Buffer.from(`{\n  "persona": { "model": "stand-in" },\n  "persona": { "model": "stand-in:slow" },\n  ${RUN}\n}`),
    /^3:3 invalid-config `persona` is given twice in one object; only one may stand \(the last would win unseen\): delete the other\.$/,
  ],
  [
    'a key twice inside a run',
    Buffer.from(`{ "runs": { "a": { "benchmark": "starter", "agent": "chatbot", "agent": "notebook" } } }`),
    /^1:\d+ invalid-config `runs\.a\.agent` is given twice/,
  ],
  [
    'a run given twice',
    Buffer.from(
      `{ "runs": { "a": { "benchmark": "starter", "agent": "chatbot" }, "a": { "benchmark": "starter", "agent": "notebook" } } }`,
    ),
    /^1:\d+ invalid-config `runs\.a` is given twice/,
  ],
  [
    'two BOMs',
    Buffer.concat([BOM, BOM, Buffer.from(`{ ${RUN} }`)]),
    /^1:1 invalid-config config\.jsonc starts with more than one byte order mark \(U\+FEFF\): save it as UTF-8 with one or none\.$/,
  ],
  [
    'UTF-16 LE with its BOM',
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`{ ${RUN} }`, 'utf16le')]),
    /^1:1 invalid-config config\.jsonc is not read: it is saved as UTF-16 .*: save it as UTF-8\.$/,
  ],
  [
    'UTF-16 BE with its BOM',
    Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(`{ ${RUN} }`, 'utf16le').swap16()]),
    /^1:1 invalid-config config\.jsonc is not read: it is saved as UTF-16/,
  ],
  ['UTF-16 without a BOM', Buffer.from(`{ ${RUN} }`, 'utf16le'), /^1:1 invalid-config config\.jsonc is not read: it holds NUL bytes/],
  [
    'Latin-1 (not UTF-8)',
    Buffer.from(`{ "runs": { "caf\xe9": { "benchmark": "starter", "agent": "chatbot" } } }`, 'latin1'),
    /^1:1 invalid-config config\.jsonc is not read: it is not UTF-8 text \(byte 17 is not valid UTF-8\): save it as UTF-8\.$/,
  ],
];

test('mmb check and mmb run refuse the same config.jsonc with the same line: keys twice, two BOMs, UTF-16, not UTF-8', () => {
  const dir = workspace({});
  for (const [what, bytes, expected] of CASES) {
    writeFileSync(join(dir, 'config.jsonc'), bytes);
    const checked = mmb(['check', 'config.jsonc'], dir);
    const ran = mmb(['run'], dir);
    assert.equal(checked.code, 1, `${what}: check fails\n${checked.stdout}${checked.stderr}`);
    assert.equal(ran.code, 2, `${what}: run stops\n${ran.stdout}${ran.stderr}`);
    const fromCheck = checkLines(checked.stdout);
    assert.equal(fromCheck.length, 1, `${what}: one line\n${checked.stdout}`);
    assert.match(fromCheck[0]!, expected, what);
    assert.deepEqual(runLines(ran.stderr), fromCheck, `${what}: run says what check says\n${ran.stderr}`);
    assert.doesNotMatch(ran.stderr, /\n\s+at /, `${what}: no stack trace`);
  }
});

test('one leading BOM is allowed by both, and the columns count after it', () => {
  const dir = workspace({});
  writeFileSync(join(dir, 'config.jsonc'), Buffer.concat([BOM, Buffer.from(`{ "paralel": 1, ${RUN} }`)]));
  const checked = checkLines(mmb(['check', 'config.jsonc'], dir).stdout);
  assert.equal(checked.length, 1);
  assert.match(checked[0]!, /^1:3 unknown-config-key config\.jsonc has no key `paralel`/);
  assert.deepEqual(runLines(mmb(['run'], dir).stderr), checked);
  writeFileSync(join(dir, 'config.jsonc'), Buffer.concat([BOM, Buffer.from(`{ ${RUN} }`)]));
  assert.equal(mmb(['check', 'config.jsonc'], dir).code, 0);
  assert.equal(mmb(['run'], dir).code, 0);
});
