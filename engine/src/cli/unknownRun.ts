/**
 * The one refusal of a run id that config.jsonc does not have, for `mmb run <id>`, its partial runs (`--from`,
 * `--filter`) and `mmb conformance` alike, and of a `--benchmark` that benchmarks/ does not hold: what there is,
 * and the one meant when a typo is near.
 */
import { basename, relative } from 'node:path';
import type { Config } from '../../../scenario/src';
import { didYouMeanSentence } from '../didYouMean';
import { UsageError } from '../errors';
import { clipName } from '../protocol/runRequest';
import { benchmarkFoldersIn } from '../workspace/folders';

/** `no run "rehersal" in config.jsonc; its runs: rehearsal. Did you mean \`rehearsal\`?` */
export function unknownRunError(unknown: readonly string[], config: Config, configPath: string): UsageError {
  const names = config.runs.map((run) => run.name);
  // A suggestion for one typo reads clearly; for several unknown ids the list of runs says enough.
  const suggestion = unknown.length === 1 ? didYouMeanSentence(unknown[0]!, names) : '';
  return new UsageError(
    `no run ${unknown.map((id) => `"${clipName(id)}"`).join(', ')} in ${relative(process.cwd(), configPath) || configPath}; ` +
      `its runs: ${names.join(', ') || 'none'}.${suggestion}`,
  );
}

/** `no benchmark "startr" in benchmarks; its benchmarks: month, multiday, starter. Did you mean \`starter\`?` */
export function unknownBenchmarkError(name: string, benchmarksDir: string): UsageError {
  const names = benchmarkFoldersIn(benchmarksDir).map((folder) => basename(folder));
  return new UsageError(
    `no benchmark "${clipName(name)}" in ${relative(process.cwd(), benchmarksDir) || benchmarksDir}; ` +
      `its benchmarks: ${names.join(', ') || 'none'}.${didYouMeanSentence(name, names)}`,
  );
}
