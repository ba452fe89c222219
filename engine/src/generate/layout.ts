/**
 * The frame of one block of a world (a single-day arc of chapters, or a month of days): its slots
 * (a chapter, or a day with its date), where the session switches fall, which days have no signal,
 * and the room each kind of item may take. A slot's number is global over the whole world, so that
 * appending a block never renumbers a chapter, a day or a check.
 */
import type { WorldSpec } from './model';

export const DAYS_PER_MONTH = 30;
const DAY_MS = 86_400_000;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

export interface Slot {
  /** The chapter's number (single-day) or the day's (multi-day), from 1 over the whole world. */
  number: number;
  /** The file its phases go to: `chapter7.md`, or `week2.md` for days 8 to 14. */
  file: string;
  /** The day it stands for, at midnight UTC: multi-day its own, single-day the story's day. */
  day: Date;
  /** The agent starts a new conversation when this slot begins. */
  newSession: boolean;
  /** A day without signal: nothing is told, the next day catches up. */
  offline: boolean;
  /** The block's exam (its last slot, when the spec asks for one). */
  exam: boolean;
}

export interface BlockLayout {
  block: number;
  slots: Slot[];
  /** The slots where the block's first topics are introduced (block 0 only). */
  introSlots: number;
  /** The last slot a trap may fall on so that an exam check is `distance` after it. */
  lastTrapSlot: number;
}

/** The world's first day at midnight UTC, from `YYYY-MM-DD HH:MM`. */
export function startDay(spec: WorldSpec): Date {
  return new Date(`${spec.start.slice(0, 10)}T00:00:00Z`);
}

export function slotsPerBlock(spec: WorldSpec): number {
  return spec.shape === 'multi-day' ? Math.min(spec.days, DAYS_PER_MONTH) : spec.chapters;
}

/** How many blocks the spec asks for: a multi-day world of 90 days is three months. */
export function blocksOf(spec: WorldSpec): number {
  return spec.shape === 'multi-day' ? Math.max(1, Math.ceil(spec.days / DAYS_PER_MONTH)) : 1;
}

/** `14 March`, as a fact or an answer writes a day. */
export const dayText = (day: Date): string => `${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]}`;
/** `2026-03-10, Tue`, a multi-day phase's date line. */
export const dateLine = (day: Date): string => `${day.toISOString().slice(0, 10)}, ${WEEKDAYS[day.getUTCDay()]}`;
export const monthName = (day: Date): string => MONTHS[day.getUTCMonth()] ?? '';
export const addDays = (day: Date, days: number): Date => new Date(day.getTime() + days * DAY_MS);

/** The frame of block `block`: its slots, switches and offline days, drawn from `random`. */
export function layoutBlock(spec: WorldSpec, block: number, random: () => number): BlockLayout {
  const count = slotsPerBlock(spec);
  const first = block * count + 1;
  const exam = spec.checksAt.includes('exam');
  const multiDay = spec.shape === 'multi-day';
  const start = startDay(spec);
  const slots: Slot[] = [];
  for (let index = 0; index < count; index++) {
    const number = first + index;
    // A single-day arc tells a month of life in one sitting: its chapters walk through that month.
    const day = multiDay
      ? addDays(start, number - 1)
      : addDays(start, block * DAYS_PER_MONTH + Math.floor((index * DAYS_PER_MONTH) / count));
    const file = multiDay ? `week${Math.ceil(number / 7)}.md` : `chapter${number}.md`;
    slots.push({ number, file, day, newSession: false, offline: false, exam: exam && index === count - 1 });
  }
  // Switches evenly spaced; the exam's own switch is one of them.
  const switches = Math.max(exam ? 1 : 0, Math.min(spec.sessionSwitches, count - 1));
  for (let s = 1; s <= switches; s++) {
    const index = s === switches && exam ? count - 1 : Math.round((s * count) / (switches + (exam ? 0 : 1)));
    const slot = slots[Math.min(count - 1, Math.max(1, index))];
    if (slot) slot.newSession = true;
  }
  const introSlots = block === 0 ? Math.max(1, Math.min(count - 1, multiDay ? 7 : Math.ceil(count * 0.35))) : 0;
  if (multiDay)
    for (const slot of slots.slice(introSlots, -2))
      if (!slot.newSession && random() < spec.offlineDays && !slots[slot.number - first - 1]?.offline) slot.offline = true;
  return { block, slots, introSlots, lastTrapSlot: lastTrapSlot(spec, slots, exam) };
}

/** The last slot a trap may take and still be `distance` chapters and switches before the exam. */
function lastTrapSlot(spec: WorldSpec, slots: readonly Slot[], exam: boolean): number {
  const last = slots[slots.length - 1]?.number ?? 1;
  const end = exam ? last : last + 1;
  let bound = end - Math.max(1, spec.distance.chapters);
  let switchesSeen = 0;
  for (const slot of [...slots].reverse()) {
    if (switchesSeen >= spec.distance.sessionSwitches) break;
    if (slot.newSession) {
      switchesSeen++;
      bound = Math.min(bound, slot.number - 1);
    }
  }
  return Math.max(slots[0]?.number ?? 1, bound);
}
