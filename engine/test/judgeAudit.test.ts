/**
 * `mmb judge audit` on the stand-in over real HTTP: every figure printed on the shipped sets; the
 * lenient judge caught (κ down, vague answers passed) and the harsh one (bias below 0); an endpoint
 * failing mid-audit, then the resume, grades no ask twice; damaged journal lines are asked again;
 * replies without a grade are counted with their raw reply; `--fail-under-kappa`; the HTML escaped.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../src/cli/main';
import type { Io } from '../src/cli/run';
import type { AuditFigures } from '../src/judge/auditFigures';
import { readAuditJournal } from '../src/judge/auditJournal';
import { AUDIT_PROBE_NAMES, auditAsks } from '../src/judge/auditPlan';
import { runAudit } from '../src/judge/auditRun';
import type { Judge } from '../src/judge/judge';
import { readGradingSets } from '../src/judge/gradingSet';
import { findBenchmarkFolders } from '../src/workspace/folders';
import { startMeddlingProxy } from './meddlingProxy';
import { CLI, mmbAsync, ROOT, tempDir } from './helpers';

const SHIPPED = readGradingSets(findBenchmarkFolders(ROOT));
const LENIENT = 'stand-in:chaos?rate=1&behaviours=lenient-judge';
const HARSH = 'stand-in:chaos?rate=1&behaviours=harsh-judge';

interface Audited {
  code: number;
  out: string;
  err: string;
}

async function audit(args: string[], cwd: string = tempDir('mmb-judge-')): Promise<Audited> {
  let out = '';
  let err = '';
  const io: Io = { out: (text) => (out += text), err: (text) => (err += text), tty: false, env: {} };
  const code = await main(['judge', 'audit', ...args], cwd, io);
  return { code, out, err };
}

async function figuresOf(args: string[], cwd?: string): Promise<AuditFigures & { journal: string }> {
  const result = await audit([...args, '--json'], cwd);
  assert.equal(result.code, 0, result.err);
  return JSON.parse(result.out) as AuditFigures & { journal: string };
}

/** A set file of the first items of the shipped sets, one of each kind first. */
function smallSet(dir: string, size: number): string {
  const kinds = new Set<string>();
  const firstOfKind = SHIPPED.items.filter((item) => !kinds.has(item.kind) && kinds.add(item.kind));
  const rest = SHIPPED.items.filter((item) => !firstOfKind.includes(item));
  const items = [...firstOfKind, ...rest].slice(0, size);
  const file = join(dir, 'small.jsonl');
  // The reader's `file` and `line` are no fields of a line.
  const lines = items.map((item) => JSON.stringify({ ...item, file: undefined, line: undefined }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

test('the shipped sets are there to audit', () => {
  assert.deepEqual(SHIPPED.errors, []);
  assert.ok(SHIPPED.items.length >= 300, `${SHIPPED.items.length} items`);
});

test('mmb judge audit --judge stand-in prints every figure on the shipped sets', async () => {
  const result = await audit(['--judge', 'stand-in', '--repeat', '2']);
  assert.equal(result.code, 0, result.err);
  const kinds = [...new Set(SHIPPED.items.map((item) => item.kind))];
  const types = [...new Set(SHIPPED.items.map((item) => item.check.type ?? 'untyped'))];
  const expected = [
    ...['overall', 'by check type', 'by answer kind', 'exact', 'MAE', 'bias', 'κ', 'lenient', 'harsh'],
    ...['Pass/fail at 8', 'gold pass', 'gold fail', 'Vague but on topic:', 'Specific but wrong:'],
    ...[
      'Verbosity probe',
      'Injection probe',
      'Test–retest over 2 repeats:',
      'No grade:',
      'Tokens:',
      ' cached)',
      'Requests:',
      'Cost:',
      '$0.0000',
    ],
    ...kinds.map((kind) => `  ${kind} `),
    ...types.map((type) => `  ${type} `),
  ];
  assert.deepEqual(
    expected.filter((label) => !result.out.includes(label)),
    [],
    result.out,
  );
  assert.ok(
    result.out.split('\n').every((line) => line.length <= 100),
    'a line wider than 100 columns',
  );
  const answered = SHIPPED.items.length * (AUDIT_PROBE_NAMES.length + 1);
  assert.match(result.out, new RegExp(`${answered.toLocaleString('en')}/${answered.toLocaleString('en')} asks answered`));
  // Progress: one line per answer on a pipe.
  assert.equal(result.err.split('\n').filter((line) => / graded \d+(\.\d+)?\/10 \(\d+\/\d+\)$/.test(line)).length, answered);
});

test('the lenient judge is caught: κ falls and the vague answers pass; the harsh judge has a negative bias', async () => {
  const [fair, lenient, harsh] = await Promise.all([
    figuresOf(['--judge', 'stand-in']),
    figuresOf(['--judge', LENIENT]),
    figuresOf(['--judge', HARSH]),
  ]);
  assert.ok(fair.overall.kappa !== null && lenient.overall.kappa !== null);
  assert.ok(lenient.overall.kappa < fair.overall.kappa, `κ ${lenient.overall.kappa} ≥ ${fair.overall.kappa}`);
  assert.ok(lenient.vague.rate! > fair.vague.rate!, `vague pass rate ${lenient.vague.rate} ≤ ${fair.vague.rate}`);
  assert.ok(lenient.overall.bias! > 0, `lenient bias ${lenient.overall.bias}`);
  assert.ok(harsh.overall.bias! < 0, `harsh bias ${harsh.overall.bias}`);
  assert.ok(fair.overall.passFail.goldFailJudgePass < lenient.overall.passFail.goldFailJudgePass);
});

test('an endpoint failing mid-audit stops it with one line; the next run resumes and asks nothing twice', async () => {
  const dir = tempDir('mmb-judge-');
  const set = smallSet(dir, 12);
  const asks = auditAsks(SHIPPED.items.slice(0, 12), 1).length;
  let failing = true;
  let forwarded = 0;
  const proxy = await startMeddlingProxy((request) => {
    if (failing && request.count > 7) return { status: 401, message: 'the key was revoked' };
    forwarded++;
    return undefined;
  });
  try {
    const config = { judges: { proxied: { model: 'proxied-model', base_url: proxy.url(), api_key_env: 'JUDGE_KEY' } }, runs: {} };
    writeFileSync(join(dir, 'config.jsonc'), JSON.stringify(config));
    const args = ['--judge', 'proxied', '--set', set, '--json'];
    let out = '';
    let err = '';
    const io: Io = { out: (text) => (out += text), err: (text) => (err += text), tty: false, env: { JUDGE_KEY: 'judge-key-for-tests' } };
    const stopped = await main(['judge', 'audit', ...args], dir, io);
    assert.equal(stopped, 1, err + out);
    const line = err.split('\n').find((text) => text.startsWith('mmb: '));
    assert.match(line ?? '', /^mmb: judge proxied: .*401.*journaled in .*journal\.jsonl: run the same command again to resume\.$/);
    failing = false;
    out = '';
    const resumed = await main(['judge', 'audit', ...args], dir, io);
    assert.equal(resumed, 0, err);
    const figures = JSON.parse(out) as AuditFigures & { journal: string };
    assert.equal(figures.answered, asks);
    const lines = readFileSync(figures.journal, 'utf8').trim().split('\n');
    const keys = lines.map((text) => (JSON.parse(text) as { ask: string }).ask);
    assert.equal(new Set(keys).size, keys.length, 'an ask journaled twice');
    assert.equal(keys.length, asks);
    // Each ask reached the model once: the ones the failing endpoint refused were never answered.
    assert.equal(forwarded, asks);
  } finally {
    await proxy.close();
  }
});

test('a stop asked for mid-audit (Ctrl-C) journals what was answered; the resume asks only the rest', async () => {
  const journalFile = join(tempDir('mmb-judge-'), 'journal.jsonl');
  const asks = auditAsks(SHIPPED.items.slice(0, 10), 2);
  const asked: string[] = [];
  const controller = new AbortController();
  const judge: Judge = {
    name: 'counting',
    grade: async (item) => {
      asked.push(item.key);
      if (asked.length === 5) controller.abort();
      const usage = { promptTokens: 1, completionTokens: 1 };
      return { kind: 'graded', score: 10, comment: 'fine', raw: '{}', usage };
    },
  };
  const stopped = await runAudit({ judge, asks, journalFile, signal: controller.signal, concurrency: 2 });
  assert.deepEqual(stopped.stopped, { by: 'signal' });
  assert.equal(stopped.entries.size, asked.length);
  const resumed = await runAudit({ judge, asks, journalFile });
  assert.equal(resumed.stopped, undefined);
  assert.equal(resumed.askedNow, asks.length - stopped.entries.size);
  assert.equal(asked.length, asks.length);
  assert.equal(readFileSync(journalFile, 'utf8').trim().split('\n').length, asks.length);
});

test('SIGKILL mid-audit (the built CLI): the resume asks only what the journal lacks, and no ask is journaled twice', async () => {
  const dir = tempDir('mmb-judge-');
  const set = smallSet(dir, 40);
  const asks = 40 * AUDIT_PROBE_NAMES.length;
  const args = [CLI, 'judge', 'audit', '--judge', 'stand-in', '--set', set, '--id', 'killed'];
  const journal = join(dir, 'results', '.judge', 'killed', 'journal.jsonl');
  const child = spawn(process.execPath, args, { cwd: dir, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  while (child.exitCode === null && !(existsSync(journal) && readFileSync(journal, 'utf8').split('\n').length > 30))
    await new Promise((resolve) => setTimeout(resolve, 2));
  assert.ok(child.kill('SIGKILL'), 'the audit ended before the kill');
  await exited;
  const before = readAuditJournal(journal).entries.size;
  assert.ok(before >= 30 && before < asks, `${before} answers journaled before the kill`);
  const resumed = await mmbAsync(args.slice(1), dir);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`resumed, ${before} answered before, ${asks} asks`));
  assert.equal(resumed.stderr.split('\n').filter((line) => / graded \d/.test(line)).length, asks - before);
  const keys = readFileSync(journal, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { ask: string }).ask);
  assert.equal(keys.length, asks);
  assert.equal(new Set(keys).size, asks);
});

test('damaged journal lines are skipped, counted and asked again', async () => {
  const dir = tempDir('mmb-judge-');
  const set = smallSet(dir, 6);
  const first = await figuresOf(['--judge', 'stand-in', '--set', set], dir);
  const lines = readFileSync(first.journal, 'utf8').split('\n').filter(Boolean);
  const kept = lines.slice(2);
  writeFileSync(first.journal, ['not json', '{"ask": 3}', ...kept].join('\n') + '\n');
  appendFileSync(first.journal, '{"ask": "cut sh');
  const result = await audit(['--judge', 'stand-in', '--set', set], dir);
  assert.equal(result.code, 0, result.err);
  assert.match(result.out, /\(3 damaged journal lines skipped; their asks were asked again\)/);
  const journal = readAuditJournal(first.journal);
  assert.equal(journal.entries.size, lines.length);
  assert.match(result.err, /resumed, \d+ answered before/);
});

test('a reply without a grade is "no grade", its raw reply kept and counted', async () => {
  const dir = tempDir('mmb-judge-');
  const set = smallSet(dir, 5);
  for (const behaviour of ['bad-score', 'unknown-check', 'plain-text']) {
    const figures = await figuresOf(['--judge', `stand-in:chaos?rate=1&behaviours=${behaviour}`, '--set', set], dir);
    assert.equal(figures.noGrade.length, figures.answered, behaviour);
    assert.ok(
      figures.noGrade.every((entry) => entry.raw.length > 0 && entry.reason.length > 0),
      behaviour,
    );
    assert.equal(figures.overall.count, 0);
    assert.equal(figures.ungradedItems, 5);
  }
});

test('--fail-under-kappa exits 1 below it, 0 at or above it', async () => {
  const dir = tempDir('mmb-judge-');
  const set = smallSet(dir, 30);
  const fair = await figuresOf(['--judge', 'stand-in', '--set', set], dir);
  const threshold = fair.overall.kappa!.toFixed(3);
  assert.equal((await audit(['--judge', 'stand-in', '--set', set, '--fail-under-kappa=-1'], dir)).code, 0);
  const lenient = await audit(['--judge', LENIENT, '--set', set, '--fail-under-kappa', threshold], dir);
  assert.equal(lenient.code, 1);
  assert.match(lenient.err, /^mmb: judge stand-in:chaos\?.*: κ -?\d\.\d{3} is below --fail-under-kappa /m);
  assert.equal((await audit(['--judge', 'stand-in', '--fail-under-kappa', '2'], dir)).code, 2);
});

test('the HTML page lists the disagreements, every text escaped', async () => {
  const dir = tempDir('mmb-judge-');
  const item = SHIPPED.items.find((entry) => entry.kind === 'vague')!;
  const hostile = { ...item, file: undefined, line: undefined, answer: `${item.answer} <script>alert(1)</script>` };
  writeFileSync(join(dir, 'hostile.jsonl'), `${JSON.stringify(hostile)}\n`);
  const result = await audit(['--judge', LENIENT, '--set', 'hostile.jsonl', '--html', '--out', 'audit.html'], dir);
  assert.equal(result.code, 0, result.err);
  const html = readFileSync(join(dir, 'audit.html'), 'utf8');
  assert.ok(!html.includes('<script>alert(1)'));
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.match(html, /Disagreements \(1\)/);
  assert.ok(existsSync(join(dir, 'results', '.judge')));
});

test('usage problems are one line, exit 2', async () => {
  for (const args of [['--repeat', '0'], ['--repeat', '99'], ['--out', 'x.html'], ['--id', '../x'], ['extra'], ['--judge', 'nobody']]) {
    const result = await audit(args);
    assert.equal(result.code, 2, args.join(' '));
    assert.equal(result.err.trim().split('\n').length, 1, result.err);
  }
});
