/** Check ids are unique in a benchmark: a second check with an id points at the first and offers a free id. */
import { reporter } from '../diagnostics';
import type { Chapter } from '../model';
import type { RuleContext, RuleGroup } from './rule';

const CODES = {
  'duplicate-check-id': { severity: 'error', summary: 'two checks share an id (the diagnostic points at the first)' },
} as const;

const report = reporter(CODES);

function chapterCheckIds({ reads, out }: RuleContext, chapter: Chapter): void {
  for (const phase of chapter.phases) {
    for (const check of phase.checks) {
      const twin = reads.firstCheck(check.id);
      if (!twin || twin.check === check) continue;
      const series = check.id.split('.')[0] ?? '1';
      const free = `${series}.${reads.highestInSeries(series) + 1}`;
      const where = `${twin.file} line ${twin.check.idRange.start.line + 1}`;
      out.push(
        report(
          'duplicate-check-id',
          chapter.file,
          check.idRange,
          `Check id ${check.id} is already used in ${where}: check ids are unique in a benchmark; use ${free}.`,
          { related: [{ file: twin.file, range: twin.check.idRange, message: `first check ${check.id}` }], suggestions: [free] },
        ),
      );
    }
  }
}

export const CHECK_ID_RULES: RuleGroup<keyof typeof CODES> = { codes: CODES, chapter: chapterCheckIds };
