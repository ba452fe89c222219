/**
 * The JUnit files of `mmb report --junit` and `mmb run --junit`, validated with `xmllint --schema`
 * against junit-10.xsd, the schema Jenkins reads (fixtures/junit-10.xsd names its source). Off CI
 * a machine without xmllint skips; on CI (`CI` set) a missing xmllint fails: `.ci/run` installs it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPORTS, tempDir, workspace, mmb } from './helpers';

const SCHEMA = join(__dirname, 'fixtures', 'junit-10.xsd');
const xmllint = spawnSync('xmllint', ['--version'], { encoding: 'utf8' });
const missing = xmllint.error !== undefined;
const skip = missing && !process.env.CI ? 'xmllint is not installed (Debian: apt-get install libxml2-utils)' : false;

/** xmllint's verdict on a file: `<file> validates` on stderr and exit 0, or the schema errors. */
function validate(file: string): { code: number | null; output: string } {
  assert.equal(missing, false, 'xmllint is missing on CI: .ci/run installs libxml2-utils before npm test');
  const r = spawnSync('xmllint', ['--noout', '--schema', SCHEMA, file], { encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

test('the schema itself: xmllint refuses a file that breaks it, so a pass below means something', { skip }, () => {
  const dir = tempDir('mmb-xsd-');
  const broken = join(dir, 'broken.xml');
  writeFileSync(broken, '<?xml version="1.0"?>\n<testsuites><testsuite name="a" tests="1"><testcase/></testsuite></testsuites>\n');
  const verdict = validate(broken);
  assert.notEqual(verdict.code, 0, verdict.output);
  assert.match(verdict.output, /failures.*required|name.*required/s);
});

test('mmb report --junit: valid junit-10.xsd, hostile answers included', { skip }, () => {
  const dir = tempDir('mmb-xsd-');
  cpSync(join(REPORTS, 'benchmarks'), join(dir, 'benchmarks'), { recursive: true });
  cpSync(join(REPORTS, 'runs'), join(dir, 'results'), { recursive: true });
  const stateFile = join(dir, 'results', 'chatbot-1', 'state.json');
  const state = JSON.parse(readFileSync(stateFile, 'utf8'));
  state.grades['15.1'].at(-1).answer = ']]></failure></testcase><testcase name="forged"/> & \u0000\u001b "\'';
  writeFileSync(stateFile, JSON.stringify(state));
  const r = mmb(['report', '--junit', 'all.xml'], dir);
  assert.equal(r.code, 0, r.stderr);
  const verdict = validate(join(dir, 'all.xml'));
  assert.equal(verdict.code, 0, verdict.output);
  assert.match(verdict.output, /all\.xml validates/);
});

test('mmb run --junit: a finished run and one that crashed, valid junit-10.xsd', { skip }, () => {
  const dir = workspace({
    persona: { model: 'stand-in' },
    runs: {
      a: { benchmark: 'starter', agent: 'chatbot' },
      d: { benchmark: 'starter', agent: 'chatbot', agent_model: { model: 'gone', base_url: 'http://127.0.0.1:9/v1' } },
    },
  });
  const r = mmb(['run', '--junit', 'run.xml'], dir, { MMB_BACKOFF_BASE_MS: '1', MMB_MODEL_TIMEOUT_MS: '500' });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const verdict = validate(join(dir, 'run.xml'));
  assert.equal(verdict.code, 0, verdict.output);
});
