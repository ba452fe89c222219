/**
 * The recorded dates of a dataset on the benchmark's virtual time: a dataset's timestamp read as a
 * moment, and the date lines and `HH:MM —` anchors that bring the persona there. Virtual time only
 * moves forward and the persona waits at most 36 hours at once, so a moment earlier than the last
 * is moved a minute past it, and a longer gap is crossed in quiet steps of a day and a bit (each a
 * line that tells her to send nothing), every step a `wait` of its own.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The longest step between two anchors: under the persona's 36-hour `wait`, with room for the real time a phase takes. */
export const MAX_STEP_MS = 30 * 3_600_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
/** What a quiet step tells the persona: `SEND_NOTHING` of the stand-in reads it as silence. */
export const QUIET_STEP = 'Nothing to tell the assistant now: send nothing, and wait for the next line.';

/**
 * A dataset's timestamp as a moment (the wall clock in UTC fields): `2023/05/20 (Sat) 02:21`,
 * `2023/05/20`, `2023-05-20 02:21` or `8:56 pm on 20 May, 2023` (LoCoMo's); undefined when it is none.
 */
export function parseDatasetMoment(text: string): number | undefined {
  const numeric = /^\s*(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s*\([A-Za-z]{2,9}\))?(?:[ T]+(\d{1,2}):(\d{2}))?\s*$/.exec(text);
  if (numeric) {
    const [year, month, day, hour, minute] = numeric.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number];
    return momentOf(year, month, day, numeric[4] === undefined ? 12 : hour, minute);
  }
  const spoken = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(text);
  if (!spoken) return undefined;
  const month = MONTH_NAMES.indexOf((spoken[5] ?? '').toLowerCase()) + 1;
  if (month === 0) return undefined;
  const hour12 = Number(spoken[1]) % 12;
  const hour = (spoken[3] ?? '').toLowerCase() === 'pm' ? hour12 + 12 : hour12;
  return momentOf(Number(spoken[6]), month, Number(spoken[4]), hour, Number(spoken[2]));
}

const MONTH_NAMES: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function momentOf(year: number, month: number, day: number, hour: number, minute: number): number | undefined {
  const moment = Date.UTC(year, month - 1, day, hour, minute);
  const date = new Date(moment);
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real && hour < 24 && minute < 60 && year >= 1900 && year <= 2200 ? moment : undefined;
}

/** `2023-05-20 02:21`, as benchmark.json's `start_time` and a wait's `until` write a moment. */
export function startTimeText(moment: number): string {
  return new Date(moment).toISOString().slice(0, 16).replace('T', ' ');
}

/** `2023-05-20, Sat`: a date line. */
export function dateLineText(moment: number): string {
  const date = new Date(moment);
  return `${date.toISOString().slice(0, 10)}, ${WEEKDAYS[date.getUTCDay()]}`;
}

/** The lines of a benchmark's chapters in time order: each anchor after the last, dated when the day changes. */
export class AnchorWriter {
  private last: number;
  private day: number | undefined;

  /** `start`: the benchmark's start_time; the first anchor may stand on it. */
  constructor(start: number) {
    this.last = start - MINUTE_MS;
  }

  /** The moment the next anchor wanted at `wanted` takes: a minute after the last at the earliest. */
  momentFor(wanted: number): number {
    return Math.max(wanted, this.last + MINUTE_MS);
  }

  /** Lines for `text` said at `wanted` (or just after the last anchor): quiet steps over a long gap, a date line, the anchor. */
  lineAt(wanted: number, text: string): string[] {
    const moment = this.momentFor(wanted);
    const lines: string[] = [];
    while (moment - this.last > MAX_STEP_MS) lines.push(...this.anchor(this.last + MAX_STEP_MS, QUIET_STEP));
    lines.push(...this.anchor(moment, text));
    return lines;
  }

  private anchor(moment: number, text: string): string[] {
    const day = Math.floor(moment / DAY_MS);
    const lines = day === this.day ? [] : [dateLineText(moment)];
    this.day = day;
    this.last = moment;
    const clock = new Date(moment).toISOString().slice(11, 16);
    lines.push(`${clock} — ${text}`);
    return lines;
  }
}
