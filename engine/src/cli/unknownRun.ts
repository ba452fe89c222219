/**
 * The one refusal of a run id that config.jsonc does not have, for `mmb run <id>` and its partial
 * runs (`--from`, `--filter`) alike: the runs there are, and the one meant when a typo is near.
 */
import { relative } from 'node:path';
import type { Config } from '../../../scenario/src';
import { didYouMeanSentence } from '../didYouMean';
import { UsageError } from '../errors';
import { clipName } from '../protocol/runRequest';

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
