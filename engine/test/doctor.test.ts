/**
 * `mmb doctor` over real HTTP to the stand-in: the stand-in passes every line, and each chaos
 * behaviour at rate 1 fails exactly the lines whose `brokenBy` names it in `doctor/lines.ts`.
 * The lines no behaviour breaks (usage, prefix caching) fail on a model that reports neither.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_CONFIG, validateBenchmark, type Config } from '../../scenario/src';
import { doctorCommand } from '../src/cli/doctor';
import { main } from '../src/cli/main';
import { runDoctor } from '../src/doctor/doctor';
import { gradingResult, gradingSample, MAX_NO_GRADES, probeGrading, SAMPLE_SIZE } from '../src/doctor/grading';
import { readGradingSets } from '../src/judge/gradingSet';
import { ANSWER_KIND_NAMES, type GradingItem } from '../src/judge/item';
import type { JudgeOutcome } from '../src/judge/judge';
import { DOCTOR_LINES, type DoctorResult } from '../src/doctor/lines';
import { measureMaxRun, maxRunResult } from '../src/doctor/maxRun';
import { probeBenchmark } from '../src/doctor/phaseRun';
import { OpenAIChatModel } from '../src/models/chat';
import { GRADING_BEHAVIOURS, MISBEHAVIOUR_NAMES } from '../src/protocol/chaos';
import { InProcessStandIn } from '../src/standin/inProcess';
import { startStandIn } from '../src/standin/server';
import { ROOT, tempDir } from './helpers';

const BENCHMARKS = join(ROOT, 'benchmarks');
const CONFIG: Config = { ...DEFAULT_CONFIG, runs: [] };

interface DoctorJson {
  passed: boolean;
  lines: (DoctorResult & { capability: string; fix?: string })[];
}

/** `mmb doctor <name> --json` in a folder without config.jsonc: its exit status and its document. */
async function doctor(name: string): Promise<{ code: number; report: DoctorJson; text: string }> {
  let text = '';
  const io = { out: (s: string) => void (text += s), err: (s: string) => void (text += s), tty: false, env: {} };
  const configPath = join(tempDir('mmb-doctor-'), 'config.jsonc');
  const code = await doctorCommand({ name, configPath, json: true, benchmarksDir: BENCHMARKS }, io);
  return { code, report: JSON.parse(text) as DoctorJson, text };
}

const failing = (report: DoctorJson): string[] => report.lines.filter((line) => line.status === 'fail').map((line) => line.id);

test('mmb doctor stand-in: every line, in the order of DOCTOR_LINES, and every capability passes', async () => {
  const { code, report } = await doctor('stand-in');
  assert.deepEqual(
    report.lines.map((line) => line.id),
    DOCTOR_LINES.map((line) => line.id),
  );
  assert.deepEqual(failing(report), [], JSON.stringify(report.lines, null, 1));
  assert.equal(code, 0);
  assert.equal(report.passed, true);
});

test('each chaos behaviour at rate 1 fails exactly the lines whose brokenBy names it', async () => {
  const behaviours = [...MISBEHAVIOUR_NAMES, ...(Object.keys(GRADING_BEHAVIOURS) as (keyof typeof GRADING_BEHAVIOURS)[])];
  // Three at a time: each is a stand-in of its own, and most of a check is waiting on it.
  for (let start = 0; start < behaviours.length; start += 3) {
    const batch = behaviours.slice(start, start + 3);
    const outcomes = await Promise.all(batch.map((behaviour) => doctor(`stand-in:chaos?rate=1&behaviours=${behaviour}`)));
    batch.forEach((behaviour, index) => {
      const { code, report } = outcomes[index]!;
      const expected = DOCTOR_LINES.filter((line) => line.brokenBy.includes(behaviour)).map((line) => line.id);
      assert.deepEqual(failing(report), expected, `${behaviour}: ${JSON.stringify(report.lines, null, 1)}`);
      assert.equal(code, expected.length ? 1 : 0, behaviour);
      for (const line of report.lines.filter((l) => l.status === 'fail'))
        assert.equal(line.fix, DOCTOR_LINES.find((l) => l.id === line.id)!.fix, `${behaviour}: a failed line says what to do`);
    });
  }
});

test('a model that reports no usage fails the usage and prefix-cache lines, and only those', async () => {
  const results = await runDoctor({ model: new InProcessStandIn(), priceName: 'stand-in', config: CONFIG, benchmarksDir: BENCHMARKS });
  assert.deepEqual(
    results.filter((result) => result.status === 'fail').map((result) => result.id),
    ['usage', 'prefix-cache'],
  );
});

test('the stand-in reports cached tokens for a prefix it has seen, and the client reads them, streamed or not', async () => {
  const server = await startStandIn();
  try {
    for (const stream of [false, true]) {
      const messages = [
        { role: 'system' as const, content: `A long and constant system prompt, streamed: ${stream}. `.repeat(200) },
        { role: 'user' as const, content: 'My boat is called Wren.' },
      ];
      const model = new OpenAIChatModel({ model: 'stand-in', baseURL: server.url, apiKey: 'stand-in', secretKey: false, stream });
      const first = await model.complete({ messages: [...messages, { role: 'user', content: `first ${stream}` }] });
      assert.equal(first.usage.cachedTokens, undefined, 'a prefix never seen: nothing cached');
      const again = await model.complete({ messages: [...messages, { role: 'user', content: `again ${stream}` }] });
      assert.ok((again.usage.cachedTokens ?? 0) > 1000, `the system prompt came from the cache: ${JSON.stringify(again.usage)}`);
      assert.ok(again.usage.cachedTokens! < again.usage.promptTokens);
    }
  } finally {
    await server.close();
  }
});

test("the Max estimate: measured once, priced from config.jsonc's prices, or 'price unknown'", async () => {
  const figures = await measureMaxRun(join(BENCHMARKS, 'max'), CONFIG.compaction);
  assert.ok(figures.requests > 100 && figures.promptTokens > figures.completionTokens, JSON.stringify(figures));
  const unknown = await maxRunResult('a-model-nobody-prices', BENCHMARKS, CONFIG);
  assert.equal(unknown.status, 'info');
  assert.match(unknown.detail, /price unknown/);
  const prices = { 'a-model-nobody-prices': { input: 1, output: 10 } };
  const priced = await maxRunResult('a-model-nobody-prices', BENCHMARKS, { ...CONFIG, prices });
  const cost = (figures.promptTokens * 1 + figures.completionTokens * 10) / 1e6;
  assert.ok(priced.detail.includes(`about $${cost.toFixed(2)}`), priced.detail);
  assert.ok(priced.detail.includes(figures.requests.toLocaleString('en-US')), priced.detail);
});

test('the grading sample: 20 items, every answer kind, several benchmarks, the same every time; no grade counted, never skipped', () => {
  const sets = readGradingSets(['max', 'multiday', 'starter', 'filing'].map((name) => join(BENCHMARKS, name)));
  const sample = gradingSample(sets.items);
  assert.equal(sample.length, SAMPLE_SIZE);
  assert.deepEqual(new Set(sample.map((item) => item.kind)), new Set(ANSWER_KIND_NAMES));
  assert.ok(new Set(sample.map((item) => item.benchmark)).size >= 3, 'the kinds are not all drawn from one set');
  assert.deepEqual(
    gradingSample(sets.items).map((item) => item.key),
    sample.map((item) => item.key),
  );
  const usage = { promptTokens: 1, completionTokens: 1 };
  const gold = (item: GradingItem): JudgeOutcome => ({ kind: 'graded', score: item.gold, comment: 'as the gold', raw: '', usage });
  const none: JudgeOutcome = { kind: 'no-grade', reason: 'no record_grade call', raw: 'I would say 7', usage };
  const allowed = sample.map((item, index) => (index < MAX_NO_GRADES ? none : gold(item)));
  assert.equal(gradingResult(sample, allowed).status, 'pass', gradingResult(sample, allowed).detail);
  const tooMany = sample.map((item, index) => (index <= MAX_NO_GRADES ? none : gold(item)));
  assert.match(
    gradingResult(sample, tooMany).detail,
    new RegExp(`^${MAX_NO_GRADES + 1} of 20 items without a grade: no record_grade call`),
  );
  assert.equal(gradingResult(sample, tooMany).status, 'fail');
});

test("the κ docs/grading.md quotes for the stand-in's grader and the lenient and harsh judges are what they reach", async () => {
  const docs = readFileSync(join(ROOT, 'docs', 'grading.md'), 'utf8');
  const server = await startStandIn();
  try {
    const judges = { "the stand-in's grader": 'stand-in', 'lenient judge': 'lenient-judge', 'harsh judge': 'harsh-judge' };
    for (const [named, behaviour] of Object.entries(judges)) {
      const model = behaviour === 'stand-in' ? 'stand-in' : `stand-in:chaos?rate=1&behaviours=${behaviour}`;
      const judge = new OpenAIChatModel({ model, baseURL: server.url, apiKey: 'stand-in', secretKey: false });
      const line = await probeGrading(judge, BENCHMARKS);
      const kappa = /κ (\d\.\d\d)/.exec(line.detail)?.[1];
      assert.ok(docs.includes(`${named} reaches κ ${kappa}`) || docs.includes(`${named} κ ${kappa}`), `${named}: κ ${kappa}`);
      assert.equal(line.status, behaviour === 'stand-in' ? 'pass' : 'fail', line.detail);
    }
  } finally {
    await server.close();
  }
});

test("docs/grading.md's table of the lines names each line of DOCTOR_LINES, in order", () => {
  const docs = readFileSync(join(ROOT, 'docs', 'grading.md'), 'utf8');
  const section = docs.slice(docs.indexOf('## Checking a model before a run: `mmb doctor`'));
  assert.deepEqual(
    [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((match) => match[1]),
    DOCTOR_LINES.map((line) => line.id),
  );
});

test('the probe benchmark is valid as mmb check sees it', () => {
  assert.deepEqual(
    validateBenchmark(probeBenchmark()).map((d) => `${d.severity} ${d.code}`),
    [],
  );
});

test('the terminal: ✗ with the capability and what to do; an unknown model is a usage error', async () => {
  let out = '';
  let err = '';
  const io = { out: (s: string) => void (out += s), err: (s: string) => void (err += s), tty: false, env: {} };
  const cwd = tempDir('mmb-doctor-cli-');
  writeFileSync(join(cwd, 'config.jsonc'), JSON.stringify({ persona: { model: 'stand-in' }, runs: {} }));
  assert.equal(await main(['doctor', 'stand-in:chaos?rate=1&behaviours=plain-text'], cwd, io), 1);
  const line = DOCTOR_LINES.find((l) => l.id === 'send-message')!;
  assert.ok(out.includes(`✗ ${line.capability}`) && out.includes(`→ ${line.fix}`), out);
  assert.match(out, /3 of 6 capabilities failed in [\d.]+ s: send-message, next-phase, grading\.\n$/);
  const stopped = new AbortController();
  stopped.abort();
  assert.equal(await main(['doctor', 'stand-in'], cwd, { ...io, signal: stopped.signal }), 130, 'Ctrl-C ends a check at once');
  assert.match(err, /mmb doctor stopped: it keeps nothing/);
  err = '';
  assert.equal(await main(['doctor', 'no-such-model'], cwd, io), 2);
  assert.match(err, /^mmb: mmb doctor "no-such-model": no such judge; the judges are persona, stand-in \(add one under "judges"/);
});

test("a model named by a key of config.jsonc's judges, as --judge names one", async () => {
  let out = '';
  const io = { out: (s: string) => void (out += s), err: (s: string) => void (out += s), tty: false, env: {} };
  const cwd = tempDir('mmb-doctor-judges-');
  const judges = { 'my-grader': { model: 'stand-in:chaos?rate=1&behaviours=refusal' } };
  writeFileSync(join(cwd, 'config.jsonc'), JSON.stringify({ persona: { model: 'stand-in' }, judges, runs: {} }));
  assert.equal(await main(['doctor', 'my-grader'], cwd, io), 1, out);
  assert.match(out, /^Checking my-grader \(model stand-in:chaos\?rate=1&behaviours=refusal\)/);
});
