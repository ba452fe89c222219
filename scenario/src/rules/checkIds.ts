/**
 * Check ids are unique in a benchmark: every check that shares its id is an error on its own line,
 * pointing at the others, with free ids to renumber that one (so a check just typed is marked where
 * it was typed, and its fix never renumbers the original).
 */
import type { LocatedCheck } from '../benchmark';
import { reporter } from '../diagnostics';
import type { Chapter } from '../model';
import type { Reads } from '../reads';
import type { RuleContext, RuleGroup } from './rule';

const CODES = {
  'duplicate-check-id': { severity: 'error', summary: 'two checks share an id (each is reported, with a free id to renumber it)' },
} as const;

const report = reporter(CODES);

/** How many of the others a message names before "and N more". */
const NAMED_TWINS = 3;

function chapterCheckIds({ reads, out }: RuleContext, chapter: Chapter): void {
  for (const phase of chapter.phases) {
    for (const check of phase.checks) {
      const others = reads.checksWithId(check.id).filter((located) => located.check !== check);
      if (others.length === 0) continue;
      const free = freeCheckIds(reads, check.id, chapterSeries(chapter, check.id));
      const places = others.slice(0, NAMED_TWINS).map(placeOf);
      const more = others.length > NAMED_TWINS ? ` and ${others.length - NAMED_TWINS} more` : '';
      const fix = `renumber this one to ${free.join(' or ')}.`;
      out.push(
        report(
          'duplicate-check-id',
          chapter.file,
          check.idRange,
          `Check id ${check.id} is also used in ${places.join(', ')}${more}: check ids are unique in a benchmark; ${fix}`,
          {
            related: others.map((other) => ({ file: other.file, range: other.check.idRange, message: `check ${check.id} here too` })),
            suggestions: free,
          },
        ),
      );
    }
  }
}

function placeOf(located: LocatedCheck): string {
  return `${located.file} line ${located.check.idRange.start.line + 1}`;
}

/**
 * The series (the `N` of `N.M`) the chapter's other checks use most, else the number in its file name:
 * a check typed with another chapter's id most likely belongs to this chapter's series.
 */
export function chapterSeries(chapter: Chapter, exceptId: string): string | undefined {
  const counts = new Map<string, number>();
  for (const phase of chapter.phases) {
    for (const check of phase.checks) {
      if (check.id === exceptId) continue;
      const series = check.id.split('.')[0] ?? '';
      counts.set(series, (counts.get(series) ?? 0) + 1);
    }
  }
  let best: string | undefined;
  for (const [series, count] of counts) if (best === undefined || count > (counts.get(best) ?? 0)) best = series;
  return best ?? /(\d+)\.md$/.exec(chapter.file)?.[1];
}

/** The next free id of the chapter's series, then of the check's own series when that differs. */
function freeCheckIds(reads: Reads, id: string, chapterSeriesName: string | undefined): string[] {
  const own = id.split('.')[0] ?? '1';
  const series = chapterSeriesName && chapterSeriesName !== own ? [chapterSeriesName, own] : [own];
  return series.map((name) => `${name}.${reads.highestInSeries(name) + 1}`);
}

export const CHECK_ID_RULES: RuleGroup<keyof typeof CODES> = { codes: CODES, chapter: chapterCheckIds };
