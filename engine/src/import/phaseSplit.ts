/**
 * A session's timed lines cut into phases the persona can finish: each anchor is a `wait` and a
 * message, and a phase allows the persona 60 turns and a few more per fact and check, so a long
 * session (LoCoMo's run to thirty turns) or a long gap of quiet steps is split into phases of at
 * most `MAX_ANCHORS_PER_PHASE` anchors. The new conversation opens the first part; the sheet's
 * `require_all_facts` and the traps go with the part that tells the sheet or makes the edits.
 */

/** Anchors per phase: two persona turns each, well under the 60 a phase allows. */
export const MAX_ANCHORS_PER_PHASE = 20;

const TIMED = /^\d\d:\d\d — /;
const DATED = /^\d{4}-\d\d-\d\d, \w{3}$/;

export interface SessionPhases {
  /** The heading's words: `Session 3: 2023-05-20`; later parts add `(2)`, `(3)`. */
  title: string;
  lines: readonly string[];
  newSession: boolean;
  /** The sheet its lines tell: required in the part whose line names it. */
  sheet?: string;
  /** Trap lines: each after the part whose line makes the edit of the fact it names. */
  traps?: readonly string[];
  /** Lines after the last part's anchors (the checks). */
  after?: readonly string[];
}

/** The phases' markdown: `## title`, its JS block when it has one, its lines. */
export function phasesText(session: SessionPhases): string[] {
  const parts: string[][] = [[]];
  let anchors = 0;
  let date: string | undefined;
  for (const line of session.lines) {
    const opens = TIMED.test(line) || DATED.test(line);
    const current = parts[parts.length - 1]!;
    // A date line stays with the anchor after it: a part may only begin at a date line, or at an anchor without one.
    const startsAnchor = DATED.test(line) || (TIMED.test(line) && !DATED.test(current.at(-1) ?? ''));
    if (opens && startsAnchor && anchors >= MAX_ANCHORS_PER_PHASE) {
      // A part that opens on an anchor repeats its day: the persona reads the date from her own phase's text.
      parts.push(DATED.test(line) || date === undefined ? [] : [date]);
      anchors = 0;
    }
    if (DATED.test(line)) date = line;
    if (TIMED.test(line)) anchors++;
    parts[parts.length - 1]!.push(line);
  }
  const tells = (part: readonly string[]) =>
    session.sheet !== undefined && part.some((line) => line.includes(`\`${session.sheet}\` sheet`));
  const edits = (part: readonly string[], trap: string) => {
    const [, sheet, id] = /([\w-]+)#(\d+\.\d+)/.exec(trap) ?? [];
    return part.some((line) => line.includes(` Then update \`${sheet}\` fact ${id} `));
  };
  return parts.flatMap((part, index) => {
    const js = [
      ...(index === 0 && session.newSession ? ['await bench.newSession();'] : []),
      ...(tells(part) ? [`vars.require_all_facts = ${JSON.stringify(session.sheet)};`] : []),
    ];
    const last = index === parts.length - 1;
    const traps = (session.traps ?? []).filter((trap) => edits(part, trap));
    return [
      ...(index === 0 ? [] : ['']),
      `## ${session.title}${index === 0 ? '' : ` (${index + 1})`}`,
      ...(js.length ? ['```js', ...js, '```'] : []),
      ...part,
      ...(traps.length ? ['', ...traps] : []),
      ...(last && session.after ? session.after : []),
    ];
  });
}
