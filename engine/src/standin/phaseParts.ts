/**
 * A phase's text as the stand-in persona plays it: its parts in the order written. A part is talk
 * (said at its time when a `HH:MM —` line opens it) or a check (`❓ id [TYPE] question Correct
 * answer: …`). Order matters: on multiday's Day 12 she asks the check first and corrects herself
 * "after the answer".
 */

export interface CheckLine {
  id: string;
  type?: string;
  question: string;
  answer: string;
}

export type PhasePart = { talk: string; until?: string } | { check: CheckLine };

const CHECK = /❓\uFE0F?\s*(\d+\.\d+)\s*(?:\[([A-Z]+)\])?\s*([\s\S]*?)\s*correct answer:\s*([\s\S]*)$/i;
const DATE_LINE = /^\s*(\d{4}-\d{2}-\d{2})(?:,\s*[A-Za-z]+)?\s*$/;
const TIMED_LINE = /^\s*(\d{2}:\d{2})\s*(?:—|–|-)\s*(.*)$/;

/** The parts of a phase's text, in order; talk parts are trimmed and never empty. */
export function phaseParts(text: string): PhasePart[] {
  const lines = text.split('\n');
  const parts: PhasePart[] = [];
  let date: string | undefined;
  let talk: { talk: string; until?: string } | undefined;
  const close = () => {
    if (talk && talk.talk.trim()) parts.push({ ...talk, talk: talk.talk.replace(/\n{3,}/g, '\n\n').trim() });
    talk = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trimStart().startsWith('❓')) {
      let block = line;
      while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1] ?? '') && !(lines[i + 1] ?? '').trimStart().startsWith('❓'))
        block += ` ${(lines[++i] ?? '').trim()}`;
      const m = CHECK.exec(block);
      if (m) {
        close();
        parts.push({ check: { id: m[1] ?? '', type: m[2], question: (m[3] ?? '').trim(), answer: (m[4] ?? '').trim() } });
      }
      continue;
    }
    const day = DATE_LINE.exec(line);
    const timed = TIMED_LINE.exec(line);
    if (day) {
      date = day[1];
    } else if (timed) {
      close();
      talk = { ...(date ? { until: `${date} ${timed[1]}` } : {}), talk: timed[2] ?? '' };
    } else {
      talk ??= { talk: '' };
      talk.talk += `\n${line}`;
    }
  }
  close();
  return parts;
}

/** The checks of a phase, in order. */
export function checksOf(parts: readonly PhasePart[]): CheckLine[] {
  return parts.flatMap((part) => ('check' in part ? [part.check] : []));
}

/** The whole talk of a phase, checks left out: where its "X, not Y" swaps are read from. */
export function talkOf(parts: readonly PhasePart[]): string {
  return parts.flatMap((part) => ('talk' in part ? [part.talk] : [])).join('\n\n');
}
