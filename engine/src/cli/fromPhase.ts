/**
 * `--from <chapter.md>:<phase>` read against a benchmark: the phase it names, or one line saying
 * what is wrong (no phase number, a phase out of range, a chapter that is not there) that ends with
 * the nearest whole value to type instead (`Did you mean \`chapter2.md:3\`?`): the chapter by the
 * project's one rule of nearness (`didYouMean.ts`), the phase by number.
 */
import type { Benchmark } from '../../../scenario/src';
import { didYouMeanText } from '../../../scenario/src/suggest';
import { nearestCandidates } from '../didYouMean';
import { UsageError } from '../errors';
import { clipName } from '../protocol/runRequest';
import { oneLine } from '../../../scenario/src/plainText';
import { playOrder } from '../run/phases';

export interface FromPhase {
  chapter: string;
  /** 1-based, as typed. */
  phase: number;
  /** The phase's index in play order. */
  index: number;
}

const NEEDS = '--from needs a chapter file and a phase number, as in --from chapter2.md:1';

/** The phase `--from` names in `benchmark` (called `name` in messages); a UsageError naming the nearest valid value otherwise. */
export function fromPhase(from: string, benchmark: Benchmark, name: string): FromPhase {
  // What was typed is shown as one short line: a pasted paragraph cannot stretch or split the refusal.
  const shown = (text: string) => clipName(oneLine(text));
  const order = playOrder(benchmark);
  const files = benchmark.chapters.map((c) => c.file);
  const colon = from.lastIndexOf(':');
  const chapterText = colon < 0 ? from : from.slice(0, colon);
  const phaseText = colon < 0 ? undefined : from.slice(colon + 1);
  const typedPhase = phaseText !== undefined && /^\d{1,9}$/.test(phaseText) ? Number(phaseText) : undefined;
  const phasesOf = (file: string) => order.filter((play) => play.chapter.file === file).length;
  // The typed phase moved into the chapter's range (none typed: its first), for each chapter that has phases.
  const meant = (chapters: readonly string[]) =>
    didYouMeanText(
      chapters.filter((file) => phasesOf(file) > 0).map((file) => `${file}:${Math.min(Math.max(typedPhase ?? 1, 1), phasesOf(file))}`),
    );
  const got = `(got "${shown(from)}")`;
  if (files.includes(chapterText)) {
    if (typedPhase === undefined) throw new UsageError(`${NEEDS} ${got}.${meant([chapterText])}`);
    const index = order.findIndex((play) => play.chapter.file === chapterText && play.phase.index === typedPhase - 1);
    if (index >= 0) return { chapter: chapterText, phase: typedPhase, index };
    const count = phasesOf(chapterText);
    throw new UsageError(
      `${chapterText} has ${count} phase${count === 1 ? '' : 's'}; --from ${shown(from)} is not one of them.${meant([chapterText])}`,
    );
  }
  // `chapter2:1` (no .md) or `chapter2`: the chapter is there, the value is not written as one.
  const withMd = `${chapterText}.md`;
  if (files.includes(withMd)) throw new UsageError(`${NEEDS} ${got}.${meant([withMd])}`);
  const near = nearestCandidates(chapterText, files);
  if (!/\.md$/i.test(chapterText) || typedPhase === undefined) throw new UsageError(`${NEEDS} ${got}.${meant(near)}`);
  throw new UsageError(`${name} has no chapter ${shown(chapterText)}; its chapters: ${files.join(', ')}.${meant(near)}`);
}
