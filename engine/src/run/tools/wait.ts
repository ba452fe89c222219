/** `wait`: the persona sleeps until a moment of her day, on the virtual clock. */
import { formatWallClock } from '../../clock';
import { jumpClock } from '../context';
import { RunStopped } from '../../errors';
import { sleepUntil } from '../timeMaster';
import { fail, text, type PersonaTool } from './types';

/** The longest sleep one call may ask for. */
const MAX_WAIT_MS = 36 * 3600_000;
const FORMAT = '`until` must be a time, "HH:MM", or a moment, "YYYY-MM-DD HH:MM".';

export const waitTool: PersonaTool = {
  name: 'wait',
  position: 9,
  description: 'Sleep until a moment of your day, e.g. "07:30" or "2026-03-02 07:30".',
  whenToUse: 'in a scenario with times, to sleep until the time of your next action.',
  noteForAuthors:
    'At most 36 hours ahead; fast-forwarded with `time_master`, in real time without. Offered only in a benchmark ' + 'with dated times.',
  parameters: { until: text('HH:MM, or YYYY-MM-DD HH:MM.', 100, FORMAT) },
  required: ['until'],
  example: '{"until": "07:30"}',
  async handle(args, { run }) {
    const clock = run.options.clock;
    const target = parseUntil(typeof args.until === 'string' ? args.until : '', clock.now());
    if (target === 'malformed') return fail(FORMAT);
    if (target === 'impossible')
      return fail(
        `\`until\` ${String(args.until).trim()} is no real moment: months run 01–12, days to the month's last, hours 00–23, minutes 00–59.`,
      );
    if (target.getTime() - clock.now().getTime() > MAX_WAIT_MS) return fail('you can wait at most 36 hours at once.');
    await sleepUntil(
      target,
      clock,
      run.options.adapter,
      run.timeMaster,
      (to, skippedMs, realMs) => jumpClock(run, to, skippedMs, realMs),
      run.options.signal,
    );
    // A wait cut short by a stop is not done: journaled, it would tell the persona an earlier time.
    if (run.options.signal?.aborted) throw new RunStopped('stopped on request');
    return { content: `It is now ${formatWallClock(clock.now())}.`, effects: [] };
  },
};

/**
 * The moment `text` names on the wall clock (UTC fields): "HH:MM" is its next occurrence after
 * `now`. A date or time that does not exist (month 13, 24:00, 25:99) is `impossible`, not rolled over.
 */
export function parseUntil(text: string, now: Date): Date | 'malformed' | 'impossible' {
  const full = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/.exec(text.trim());
  if (full) {
    const [year, month, day, hour, minute] = full.slice(1).map(Number) as [number, number, number, number, number];
    const moment = new Date(Date.UTC(year, month - 1, day, hour, minute));
    const same =
      moment.getUTCFullYear() === year &&
      moment.getUTCMonth() === month - 1 &&
      moment.getUTCDate() === day &&
      moment.getUTCHours() === hour &&
      moment.getUTCMinutes() === minute;
    return same ? moment : 'impossible';
  }
  const time = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!time) return 'malformed';
  const hour = Number(time[1]);
  const minute = Number(time[2]);
  if (hour > 23 || minute > 59) return 'impossible';
  const moment = new Date(now.getTime());
  moment.setUTCHours(hour, minute, 0, 0);
  if (moment.getTime() <= now.getTime()) moment.setUTCDate(moment.getUTCDate() + 1);
  return moment;
}
