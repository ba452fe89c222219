/** The filing-system experiment through the platform: the seed article's shape, at several seeds. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SEED, filingBenchmark, MISRECORDED, simulate } from '../src/experiments/filing';
import { formatFilingTable, runFilingExperiment } from '../src/experiments/filingRun';
import { GRADING_SET_FILE } from '../src/judge/gradingSet';
import { CLI, ROOT, tempDir } from './helpers';

test('the bundled benchmarks/filing is exactly what the generator writes at seed 1107, and its hand-written grading set', () => {
  const dir = join(ROOT, 'benchmarks', 'filing');
  const files = filingBenchmark(simulate(DEFAULT_SEED));
  assert.deepEqual(readdirSync(dir).sort(), [...files.keys(), GRADING_SET_FILE].sort());
  for (const [name, text] of files)
    assert.equal(readFileSync(join(dir, name), 'utf8'), text, `${name} is stale: run scripts/generate-filing.ts`);
});

test("the world: 6 drifts and 10 observations a round; room-07 mis-recorded in round 4, contradicted only by round 5's event", () => {
  const w = simulate(DEFAULT_SEED);
  // room-07 is not forced from the start: before round 4 it is seen in a state of its own draw,
  // so the logger's notes on it disagree (the seed's 19 conflicts include it).
  const before = w.rounds.slice(0, 3).flatMap((r) => r.observations.filter((o) => o.room === MISRECORDED).map((o) => o.said));
  assert.deepEqual(before, ['room-07 is guarded']);
  assert.equal(w.rounds.length, 8);
  for (const r of w.rounds) {
    assert.equal(r.drifts.length, 6);
    assert.equal(r.observations.length, 10);
  }
  assert.deepEqual(
    w.rounds[3]?.observations.find((o) => o.room === MISRECORDED),
    { room: MISRECORDED, said: 'room-07 looked open from the corridor', truth: 'locked', changedSinceSeen: true },
  );
  assert.ok(
    w.rounds.slice(4).every((r) => !r.observations.some((o) => o.room === MISRECORDED) && !r.drifts.some((d) => d.room === MISRECORDED)),
  );
  assert.deepEqual(w.rounds[4]?.events, ["Tried room-07's door on the way past: it would not open."]);
  assert.equal(w.final[MISRECORDED], 'locked');
});

test("at seed 1107 the three policies reproduce the seed article's figures, ratios and the one miss", async () => {
  const rows = await runFilingExperiment(tempDir('mmb-filing-'), DEFAULT_SEED);
  const [log, consolidated, dreaming] = rows;
  assert.deepEqual(
    rows.map((r) => r.status),
    ['finished', 'finished', 'finished'],
  );
  assert.deepEqual([log?.files, log?.words, log?.conflicting, log?.scannedPerQuestion.toFixed(1)], [80, 240, 19, '3.3']);
  // The seed's run gives 5/24; ours has its own random draws (see docs/filing.md).
  assert.ok(Math.abs((log?.correct ?? 0) - 5) <= 1, `log everything: ${log?.correct}/24, the seed's 5/24`);
  assert.deepEqual(
    [
      consolidated?.files,
      consolidated?.words,
      consolidated?.conflicting,
      consolidated?.scannedPerQuestion.toFixed(1),
      consolidated?.correct,
    ],
    [25, 54, 0, '1.0', 23],
  );
  assert.deepEqual(consolidated?.misses, [{ room: MISRECORDED, recorded: 'open', truth: 'locked' }]);
  assert.deepEqual(
    [dreaming?.correct, dreaming?.corrected, dreaming?.corrections],
    [24, 1, [{ room: MISRECORDED, from: 'open', to: 'locked' }]],
  );
  const table = formatFilingTable(rows, DEFAULT_SEED);
  assert.match(table, /^log everything +80 +240 +19\/24 +3\.3 +[4-6]\/24 /m);
  assert.match(table, /^consolidated +25 +54 +0\/24 +1\.0 +23\/24 \(95\.8%\) +—$/m);
  assert.match(table, /^consolidated \+ dreaming +25 +54 +0\/24 +1\.0 +24\/24 \(100\.0%\) +1$/m);
  assert.match(table, /^Ratios: A\/B files 3\.2×, A\/B words 4\.4×, A\/B scanned per question 3\.3×/m);
  assert.match(
    table,
    /^consolidated: 24 room notes \+ global\.md = 25 files; the one miss: room-07, recorded "open", true value "locked"$/m,
  );
  assert.match(table, /^consolidated \+ dreaming: notes corrected: 1 \(room-07, "open" → "locked"\)$/m);
  // The command prints all of it, and nothing else, from any folder (the built CLI: `npm run build` first).
  const cli = spawnSync(process.execPath, [CLI, 'experiment', 'filing'], { cwd: tempDir('mmb-filing-cli-'), encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(cli.stdout, table);
});

test('the shape holds at other seeds: the logger mostly wrong, in conflict; consolidation 23/24 but room-07; dreaming 24/24', async () => {
  for (const seed of [1, 2, 42, 2026]) {
    const [log, consolidated, dreaming] = await runFilingExperiment(tempDir('mmb-filing-'), seed);
    assert.ok(
      (log?.correct ?? 24) <= 0.35 * 24 && (log?.conflicting ?? 0) >= 15,
      `seed ${seed}: log ${log?.correct}/24, ${log?.conflicting} conflicts`,
    );
    assert.equal(consolidated?.correct, 23, `seed ${seed}`);
    assert.deepEqual([dreaming?.correct, dreaming?.corrected], [24, 1], `seed ${seed}`);
  }
});
