/**
 * The closing lines of `mmb run` and `mmb demo`: where the full entries are, how to open a run's
 * HTML report, and for a stand-in run the one line that says what its scores mean (report/standInNote.ts),
 * so that a first run ends with where to look next rather than a bare 2.00/10.
 */
import { join, relative } from 'node:path';
import { REPORT_FILE, resultsDir } from '../protocol/layout';
import { standInNote } from '../report/standInNote';
import type { Summary } from '../report/summary';

/** What a command adds to the closing lines: a word on what the runs show, and the run the next step names. */
export interface ClosingOptions {
  /** One line printed before the report's path (`mmb demo` says what its runs compare). */
  explanation?: string;
  /** The run to open next (default: the first with a result). */
  nextRun?: string;
}

/** The lines after the result lines (each ending in a newline); empty when no run has a result. */
export function closingLines(root: string, summaries: readonly Summary[], options: ClosingOptions = {}): string {
  const next = summaries.find((summary) => summary.run === options.nextRun) ?? summaries[0];
  if (!next) return '';
  const report = relative(process.cwd(), join(resultsDir(root), REPORT_FILE)) || REPORT_FILE;
  // One note stands for all the runs: its next step names a stand-in run; a real run is named in the HTML line instead.
  const note = standInNote(next) ?? summaries.map(standInNote).find((line) => line !== undefined);
  const html = note ? '' : `; a run's HTML report: mmb report ${next.run} --html`;
  const explanation = options.explanation ? `\n${options.explanation}\n` : '';
  return `${explanation}Full entries: ${report}${html}\n${note ? `${note}\n` : ''}`;
}
