/**
 * The first hour, as a newcomer walks it with the built CLI and no key: `mmb init`, the rehearsals,
 * the report, an own agent (conformance, then a run), an own benchmark rehearsed whole. At every
 * step: exit 0, no stack trace, no output gap longer than a wait may stay silent, the word
 * "partial" nowhere, and every stand-in score beside the one line that says what it means.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI, tempDir } from './helpers';

/** The longest a command may print nothing: a wait over 5 s shows on the progress line. */
const LONGEST_SILENCE_MS = 6_000;
/** What the stand-in note starts with, wherever a stand-in run's scores are shown. */
const NOTE = /A stand-in run: no model, so its scores show the benchmark at work/;
/** A Node stack frame: a bug of ours, never output. */
const STACK_FRAME = /^\s+at .+[(\s]\S+:\d+:\d+\)?$/m;

interface Outcome {
  code: number | null;
  output: string;
  /** The longest time between two chunks of output (or from the start to the first, or the last to the end). */
  longestSilenceMs: number;
}

/** Runs the CLI as a newcomer's terminal would, timing the gaps in what it prints. */
function mmb(args: string[], cwd: string): Promise<Outcome> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/_API_KEY$/i.test(name)));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env });
    let output = '';
    let last = Date.now();
    let longest = 0;
    const take = (chunk: Buffer) => {
      const now = Date.now();
      longest = Math.max(longest, now - last);
      last = now;
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => resolve({ code, output, longestSilenceMs: Math.max(longest, Date.now() - last) }));
  });
}

/** The checks every step passes: done, no trace, never silent for long, never called partial. */
function assertClean(step: string, outcome: Outcome): void {
  assert.equal(outcome.code, 0, `${step}: exit 0\n${outcome.output}`);
  assert.doesNotMatch(outcome.output, STACK_FRAME, `${step}: no stack trace`);
  assert.doesNotMatch(outcome.output, /partial/i, `${step}: a run played from its first phase is full`);
  assert.ok(outcome.longestSilenceMs < LONGEST_SILENCE_MS, `${step}: silent for ${outcome.longestSilenceMs} ms`);
}

/** The averages of a run's result lines (`<id>  finished  average 7.00/10 …`). */
function averageOf(output: string, run: string): number {
  const line = new RegExp(`^${run.replace(/[.]/g, '\\.')} +finished +average ([\\d.]+)/10`, 'm').exec(output);
  assert.ok(line, `a result line for ${run} in:\n${output}`);
  return Number(line[1]);
}

test('the newcomer path: init, rehearsals, report, own agent, own benchmark rehearsed whole', async () => {
  const parent = tempDir('mmb-newcomer-');
  const workspace = join(parent, 'ws');
  const init = await mmb(['init', 'ws'], parent);
  assertClean('mmb init', init);
  assert.match(init.output, /Next: `cd ws && mmb run`/);

  // Both rehearsals: the notebook keeps what the session switch takes from the chatbot.
  const rehearsals = await mmb(['run'], workspace);
  assertClean('mmb run', rehearsals);
  assert.match(rehearsals.output, NOTE);
  assert.match(rehearsals.output, /Next: mmb report \S+ --html/);
  const notebook = averageOf(rehearsals.output, 'rehearsal');
  const chatbot = averageOf(rehearsals.output, 'rehearsal-chatbot');
  assert.ok(notebook > chatbot, `the notebook (${notebook}) does better than the chatbot (${chatbot})`);

  for (const args of [['report'], ['report', 'rehearsal-chatbot'], ['report', 'rehearsal', '--html']]) {
    const report = await mmb(args, workspace);
    assertClean(`mmb ${args.join(' ')}`, report);
  }
  assert.match((await mmb(['report', 'rehearsal-chatbot'], workspace)).output, NOTE);
  assert.match(readFileSync(join(workspace, 'results', 'rehearsal', 'report.html'), 'utf8'), NOTE);

  // An own agent, from the generated starter in Python: it passes conformance and plays.
  assertClean('mmb new agent', await mmb(['new', 'agent', 'my-agent', '--kind', 'process'], workspace));
  const conformance = await mmb(['conformance', 'my-agent'], workspace);
  assertClean('mmb conformance', conformance);
  assert.match(conformance.output, /Every requirement holds/);
  const own = await mmb(['run', 'my-agent'], workspace);
  assertClean('mmb run my-agent', own);
  assert.match(own.output, /^my-agent +finished/m);

  // An own benchmark: mmb new prints the command that rehearses it whole, and that command works.
  const created = await mmb(['new', 'my-bench'], workspace);
  assertClean('mmb new', created);
  const command = /rehearse it whole: mmb (run \S+)$/m.exec(created.output)?.[1];
  assert.ok(command, `mmb new names its rehearsal:\n${created.output}`);
  const rehearsed = await mmb(command.split(' '), workspace);
  assertClean(`mmb ${command}`, rehearsed);
  assert.match(rehearsed.output, NOTE);
  const whole = await mmb(['run', '--benchmark', 'my-bench', '--rehearse'], workspace);
  assertClean('mmb run --benchmark my-bench --rehearse', whole);
  assert.match(whole.output, /^my-bench\.rehearsal +finished .* coverage 4\/4/m);
  assert.ok(existsSync(join(workspace, 'results', 'my-bench.rehearsal', 'benchmark')), 'the run kept the benchmark it played');
  const list = await mmb(['report'], workspace);
  assertClean('mmb report (all)', list);
  for (const run of ['rehearsal', 'rehearsal-chatbot', 'my-agent', 'my-bench.rehearsal'])
    assert.match(list.output, new RegExp(`^${run.replace('.', '\\.')} .* finished`, 'm'));
});
