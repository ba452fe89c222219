/**
 * The result lines `mmb run` prints once its runs end, one a run: the id, the status, the average, the coverage and
 * the time, in columns. The id column is as wide as the longest id (24 at least): an id is never cut, since it is
 * what `mmb report <id>` takes, and a long one (`<run>.from-chapter12-3.rehearsal`) no longer pushes its own line's
 * columns out of line with the others'.
 */
import type { Summary } from '../report/summary';
import { printable, textWidth } from './textWidth';

/** The narrowest id column: the ids of a config are mostly shorter, and their lines keep the column they always had. */
const MIN_ID_COLUMNS = 24;

/** Wider than any status a run ends in (`finished`, `crashed`, `stopped`, `running`). */
const STATUS_COLUMNS = 9;

export type ResultFigures = Pick<Summary, 'status' | 'average' | 'coverage' | 'runTimeSeconds' | 'runTimeMinutes'>;

/** `rehearsal                finished  average 5.00/10  coverage 12/12  3 s`, one line a run, aligned. */
export function resultLines(results: ReadonlyArray<{ run: string; summary: ResultFigures }>): string[] {
  const ids = results.map(({ run }) => printable(run));
  const idColumns = Math.max(MIN_ID_COLUMNS, ...ids.map((id) => textWidth(id)));
  return results.map(({ summary }, i) => {
    const id = ids[i]!;
    const average = summary.average === null ? '—' : summary.average.toFixed(2);
    const runTime = summary.runTimeSeconds < 60 ? `${summary.runTimeSeconds} s` : `${summary.runTimeMinutes} min`;
    const coverage = `${summary.coverage.graded}/${summary.coverage.planned}`;
    const status = summary.status.padEnd(STATUS_COLUMNS);
    return `${id}${' '.repeat(idColumns - textWidth(id))} ${status} average ${average}/10  coverage ${coverage}  ${runTime}`;
  });
}
