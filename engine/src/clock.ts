/**
 * Virtual time: real time plus an offset, shared by the engine and the adapters. Its value's UTC
 * fields are the scenario's wall clock (`2026-03-01 20:00` is `2026-03-01T20:00:00Z`), so dates
 * never depend on the machine's time zone.
 */
export class Clock {
  constructor(private offsetMs = 0) {}

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  get offset(): number {
    return this.offsetMs;
  }

  /**
   * Sets the clock to `target` as of the real moment `realNow` (a jump of virtual time, or a
   * resumed run's saved time). Journaling that same real moment lets the clock be rebuilt exactly.
   */
  set(target: Date, realNow = Date.now()): void {
    this.offsetMs = target.getTime() - realNow;
  }

  /** Moves the clock forward to `target` (never back). */
  advanceTo(target: Date): void {
    this.offsetMs = Math.max(this.offsetMs, target.getTime() - Date.now());
  }
}

/** The local wall clock of a real moment, carried in a Date's UTC fields (as templates expect). */
export function wallClock(date: Date): Date {
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
}

/** `YYYY-MM-DD HH:MM` of a wall-clock Date. */
export function formatWallClock(date: Date): string {
  return date.toISOString().slice(0, 16).replace('T', ' ');
}
