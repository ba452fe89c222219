/**
 * `mmb import longmemeval` through the built CLI, as a user's shell runs it: the fixture becomes a
 * benchmark per playable question, the summary counts them by type and says what was left out and
 * why; every folder checks clean with `--audit` and rehearses to the end with full coverage and its
 * check type; the same file and options write the same bytes; a file of another schema, a bad
 * option and an existing folder are one line and exit 2 with nothing written.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { mmb, tempDir } from './helpers';

const FIXTURE = join(__dirname, 'fixtures', 'datasets', 'longmemeval.json');
const SHA = createHash('sha256').update(readFileSync(FIXTURE)).digest('hex');

function folderBytes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const folder of readdirSync(dir).sort())
    for (const name of readdirSync(join(dir, folder)).sort()) out.set(`${folder}/${name}`, readFileSync(join(dir, folder, name), 'utf8'));
  return out;
}

/** A usage problem: exit 2, the one line on stderr, nothing on stdout. */
function refused(result: ReturnType<typeof mmb>, line: string | RegExp): void {
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, '');
  if (typeof line === 'string') assert.equal(result.stderr, `mmb: ${line}\n`);
  else assert.match(result.stderr, line);
  assert.equal(result.stderr.trimEnd().split('\n').length, 1);
}

test('the fixture: a benchmark per playable question, the summary by type, each passing --audit and rehearsed with full coverage', () => {
  const dir = tempDir('mmb-import-');
  writeFileSync(join(dir, 'config.jsonc'), '{ "persona": { "model": "stand-in" } }\n');
  const r = mmb(['import', 'longmemeval', FIXTURE], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.deepEqual(r.stdout.trimEnd().split('\n'), [
    `Imported 6 benchmarks from longmemeval.json (7 items, sha256 ${SHA.slice(0, 12)}…) into benchmarks/, --haystack full:`,
    '  by question type: knowledge-update 1, multi-session 1, single-session-preference 1, single-session-user 2, temporal-reasoning 1',
    '  by check type: AGG 1, RECALL 3, SERIES 1, VOID 1',
    '  knowledge updates: 1 with a STALE trap, 0 RECALL alone (no number tells the earlier value from the later)',
    '  left out: 1 single-session-assistant (it asks what a recorded assistant said, and on-policy the agent under test said ' +
      'something else, so the question has no answer)',
    'Next: mmb check --audit benchmarks/longmemeval-q-user-1; mmb run --benchmark longmemeval-q-user-1 --rehearse.',
  ]);
  const folders = readdirSync(join(dir, 'benchmarks')).sort();
  assert.deepEqual(folders, [
    'longmemeval-q-multi-3',
    'longmemeval-q-pref-7',
    'longmemeval-q-time-4',
    'longmemeval-q-update-2',
    'longmemeval-q-user-1',
    'longmemeval-q-user-6_abs',
  ]);
  const readme = readFileSync(join(dir, 'benchmarks', 'longmemeval-q-user-1', 'README.md'), 'utf8');
  assert.match(readme, /^- Dataset: LongMemEval \(https:\/\/github\.com\/xiaowu0162\/LongMemEval\), licence MIT\./m);
  assert.match(readme, new RegExp(`^- Input file: \`longmemeval\\.json\`, sha256 \`${SHA}\`\\.$`, 'm'));
  assert.match(readme, /^- Citation: Di Wu, .* LongMemEval: Benchmarking Chat Assistants on Long-Term Interactive Memory\. ICLR 2025\./m);
  const expectedType: Record<string, string> = {
    'longmemeval-q-multi-3': 'AGG',
    'longmemeval-q-pref-7': 'RECALL',
    'longmemeval-q-time-4': 'SERIES',
    'longmemeval-q-update-2': 'RECALL',
    'longmemeval-q-user-1': 'RECALL',
    'longmemeval-q-user-6_abs': 'VOID',
  };
  for (const folder of folders) {
    const check = mmb(['check', '--audit', `benchmarks/${folder}`], dir);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.equal(check.stdout, `benchmarks/${folder}: 0 errors, 0 warnings\n`);
    const coverage = mmb(['check', '--coverage', `benchmarks/${folder}`], dir);
    assert.match(coverage.stdout, new RegExp(`\\b${expectedType[folder]}\\b 1\\b`), coverage.stdout);
    const run = mmb(['run', '--benchmark', folder, '--rehearse'], dir);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`^${folder.replace(/[.-]/g, '\\$&')}\\.rehearsal +finished +average [\\d.]+/10 +coverage 1/1`, 'm'),
    );
  }
  // The dataset's metric: accuracy per question type over the six rehearsals, and for one run alone.
  const listing = mmb(['report'], dir).stdout.split('\n');
  const heading = listing.findIndex((line) => line.startsWith('LongMemEval @ chatbot on the stand-in: accuracy'));
  assert.equal(
    listing[heading],
    'LongMemEval @ chatbot on the stand-in: accuracy (a check at or above 8/10 counts as correct) over 6 runs, with 95 % Wilson intervals:',
  );
  assert.deepEqual(
    listing.slice(heading + 1, heading + 7).map((line) =>
      line
        .trim()
        .split(/\s+/)
        .slice(0, 2)
        .join(' ')
        .replace(/ \d+\//, ' n/'),
    ),
    [
      'knowledge-update n/1',
      'multi-session n/1',
      'single-session-preference n/1',
      'single-session-user n/2',
      'temporal-reasoning n/1',
      'all n/6',
    ],
  );
  assert.match(listing[heading + 7]!, /^On-policy: the persona told the recorded user's turns/);
  const one = mmb(['report', 'longmemeval-q-multi-3.rehearsal'], dir).stdout;
  assert.match(one, /^📏 LongMemEval: accuracy .* per question type, .*\n\n.*\n.*\n\| multi-session \| [01]\/1 \| \d+ % \(/mu);
});

test('the same file and options write the same folders, byte for byte; other options, other folders', () => {
  const [first, second, oracle] = [tempDir('mmb-import-a-'), tempDir('mmb-import-b-'), tempDir('mmb-import-c-')];
  for (const dir of [first, second])
    assert.equal(mmb(['import', 'longmemeval', FIXTURE, '--types', 'knowledge-update,multi-session'], dir).code, 0);
  assert.deepEqual(folderBytes(join(first, 'benchmarks')), folderBytes(join(second, 'benchmarks')));
  assert.deepEqual(
    [...folderBytes(join(first, 'benchmarks')).keys()].filter((name) => name.endsWith('README.md')),
    ['longmemeval-q-multi-3/README.md', 'longmemeval-q-update-2/README.md'],
  );
  const sample = mmb(['import', 'longmemeval', FIXTURE, '--sample', '2', '--seed', '3', '--haystack', 'oracle'], oracle);
  assert.equal(sample.code, 0, sample.stderr);
  assert.match(sample.stdout, /^Imported 2 benchmarks from longmemeval\.json .* --haystack oracle --sample 2 --seed 3:$/m);
  assert.equal(
    mmb(['import', 'longmemeval', FIXTURE, '--sample', '2', '--seed', '3', '--haystack', 'oracle'], tempDir()).stdout,
    sample.stdout,
  );
});

test('a file of another schema, a bad option, an existing folder: one line, exit 2, nothing written', () => {
  const dir = tempDir('mmb-import-bad-');
  const items = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>[];
  (items[3]!.haystack_sessions as Record<string, unknown>[][])[1]![0]!.role = 3;
  writeFileSync(join(dir, 'changed.json'), JSON.stringify(items));
  writeFileSync(join(dir, 'locomo.json'), JSON.stringify([{ sample_id: 'conv-26', conversation: {}, qa: [] }]));
  refused(
    mmb(['import', 'longmemeval', 'changed.json'], dir),
    'changed.json: item 3: field haystack_sessions[1][0].role: expected a string, found a number (3) ' +
      '(not a LongMemEval item; docs/datasets.md gives the schema).',
  );
  refused(
    mmb(['import', 'longmemeval', 'locomo.json'], dir),
    'locomo.json: item 0: field question_id: expected a string, found nothing (the field is missing) ' +
      '(not a LongMemEval item; docs/datasets.md gives the schema).',
  );
  refused(mmb(['import', 'longmemeval', 'missing.json'], dir), 'cannot read missing.json: no such file or folder');
  refused(
    mmb(['import', 'longmemeal', FIXTURE], dir),
    /^mmb: unknown dataset "longmemeal": the datasets are longmemeval, locomo, memoryagentbench\. Did you mean `longmemeval`\?\n$/,
  );
  refused(
    mmb(['import', 'longmemeval', FIXTURE, '--types', 'knowledge-updates'], dir),
    /^mmb: --types: "knowledge-updates" is no question type/,
  );
  refused(mmb(['import', 'longmemeval', FIXTURE, '--ids', 'q-nope'], dir), `--ids: ${FIXTURE} has no item q-nope.`);
  refused(mmb(['import', 'longmemeval', FIXTURE, '--seed', '2'], dir), '--seed goes with --sample N: mmb import … --sample 20 --seed 7.');
  refused(mmb(['import', 'longmemeval', FIXTURE, '--haystack', 'some'], dir), /^mmb: --haystack takes oracle, full or a number/);
  assert.equal(existsSync(join(dir, 'benchmarks')), false);
  assert.equal(mmb(['import', 'longmemeval', FIXTURE, '--ids', 'q-time-4'], dir).code, 0);
  refused(
    mmb(['import', 'longmemeval', FIXTURE], dir),
    'benchmarks/longmemeval-q-time-4 exists: remove it, or import in another workspace (nothing was imported).',
  );
  assert.deepEqual(readdirSync(join(dir, 'benchmarks')), ['longmemeval-q-time-4']);
});
