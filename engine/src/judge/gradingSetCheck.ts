/**
 * `mmb check` on a benchmark's grading set: its bad lines, and its items whose check the benchmark
 * lacks or writes differently, as diagnostics in the same list as the benchmark's own, each at its
 * line of grading.jsonl. A set is only as good as its checks: an item whose correct answer drifted
 * from the benchmark's would hold a judge to an answer no persona is given.
 */
import { diagnostic, lineRange, type Benchmark, type Diagnostic, type LocatedCheck } from '../../../scenario/src';
import { shorten } from '../../../scenario/src/plainText';
import { GRADING_SET_FILE, readGradingSet } from './gradingSet';
import type { GradingItem } from './item';

const COMPARED = ['question', 'answer', 'type'] as const;

/** What differs between an item's check and the benchmark's, as a clause; undefined when they agree. */
export function checkMismatch(item: GradingItem, located: LocatedCheck | undefined): string | undefined {
  const id = JSON.stringify(shorten(item.check.id, 20));
  if (!located) return `check ${id} is not in this benchmark: give the id of one of its ❓ checks, or remove the item`;
  const where = `${located.file}:${located.check.range.start.line + 1}`;
  for (const field of COMPARED) {
    const given = item.check[field];
    const written = located.check[field];
    if (given === written) continue;
    const shown = written === undefined ? 'nothing' : JSON.stringify(shorten(written, 60));
    return `check ${id}'s \`${field}\` is not the benchmark's (${where} has ${shown}): copy it as the benchmark writes it`;
  }
  return undefined;
}

/** The diagnostics of `<dir>/grading.jsonl` against the benchmark read from `dir`; none when there is no set. */
export function gradingSetDiagnostics(dir: string, benchmark: Benchmark): Diagnostic[] {
  const set = readGradingSet(dir, GRADING_SET_FILE);
  const checks = new Map(benchmark.checks.map((located) => [located.check.id, located]));
  const at = (line: number) => lineRange(Math.max(0, line - 1), 0, 0);
  const diagnostics = set.errors.map((error) => diagnostic('invalid-grading-item', GRADING_SET_FILE, at(error.line), error.message));
  for (const item of set.items) {
    const mismatch = checkMismatch(item, checks.get(item.check.id));
    if (mismatch) diagnostics.push(diagnostic('grading-check-mismatch', GRADING_SET_FILE, at(item.line ?? 1), mismatch));
  }
  return diagnostics.sort((left, right) => left.range.start.line - right.range.start.line);
}
