/**
 * Writes the fixture workspace of the report tests, engine/test/fixtures/reports/: a copy of the
 * multiday benchmark and runs/<id>/state.json, made by the real engine playing it on the stand-in
 * three times with the chatbot and once more with the session switch ignored (the whole conversation in context), with a small persona
 * context so that compactions happen. The stand-in is deterministic, so the three chatbot runs would agree on every check;
 * a flaky check is simulated by one later grade journaled into chatbot-2 (an answer that also
 * carries markup, for the escaping tests). Run: node --import tsx scripts/report-fixtures.ts
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../scenario/src';
import { FileRunStore } from '../engine/src/run/store';
import { launchRuns } from '../engine/src/workspace/launch';

const ROOT = join(__dirname, '..');
const OUT = join(ROOT, 'engine', 'test', 'fixtures', 'reports');

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'mmb-fixtures-'));
  rmSync(OUT, { recursive: true, force: true });
  cpSync(join(ROOT, 'benchmarks', 'multiday'), join(OUT, 'benchmarks', 'multiday'), { recursive: true });
  cpSync(join(OUT, 'benchmarks'), join(root, 'benchmarks'), { recursive: true });
  const { config } = parseConfig(
    JSON.stringify({
      persona: { model: 'stand-in' },
      compaction: { max_tokens: 6000, trim_to_tokens: 2500 },
      time_master: { min_sleep_to_skip: 5, pre_wake_delay: 0, poll_interval: 0.05 },
      runs: {
        'chatbot-1': { benchmark: 'multiday', agent: 'chatbot' },
        'chatbot-2': { benchmark: 'multiday', agent: 'chatbot' },
        'chatbot-3': { benchmark: 'multiday', agent: 'chatbot' },
        'in-context': { benchmark: 'multiday', agent: 'chatbot', ignore_session_break: true },
      },
    }),
  );
  const outcomes = await launchRuns({ root, benchmarksDir: join(root, 'benchmarks'), config, runs: config.runs, env: {} });
  for (const o of outcomes) if (o.summary?.status !== 'finished') throw new Error(`${o.run}: ${o.problem ?? o.summary?.error}`);

  const flaky = new FileRunStore(join(root, 'results', 'chatbot-2'));
  const state = flaky.load()!;
  const last = state.grades['15.4']!.at(-1)!;
  const at = new Date(Date.parse(state.lastEventAt) + 1000).toISOString();
  flaky.append(state, {
    type: 'tool-done',
    at,
    callId: 'fixture-regrade',
    name: 'grade',
    content: 'Grade recorded.',
    effects: [
      {
        kind: 'grade',
        checkId: '15.4',
        grade: {
          ...last,
          score: 4,
          effective: 4,
          attempt: 1,
          at,
          answer: 'About 5 km, I think <img src=x onerror="alert(1)"><script>alert(2)</script>',
          comment: 'right number, but hedged & "a guess"',
        },
      },
    ],
  });
  flaky.flush(state);

  for (const o of outcomes) {
    mkdirSync(join(OUT, 'runs', o.run), { recursive: true });
    cpSync(join(root, 'results', o.run, 'state.json'), join(OUT, 'runs', o.run, 'state.json'));
  }
  rmSync(root, { recursive: true, force: true });
  process.stdout.write(`wrote ${outcomes.map((o) => o.run).join(', ')} to ${OUT}\n`);
}

void main();
