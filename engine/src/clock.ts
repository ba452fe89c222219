/** Virtual time: real time plus an offset, shared by the engine and the adapters. */
export class Clock {
  constructor(private offsetMs = 0) {}

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  get offset(): number {
    return this.offsetMs;
  }

  /** Moves the clock forward to `target` (never back). */
  advanceTo(target: Date): void {
    this.offsetMs = Math.max(this.offsetMs, target.getTime() - Date.now());
  }
}

/** The local wall clock of a real moment, carried in a Date's UTC fields (as templates expect). */
export function wallClock(d: Date): Date {
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
}

/** `YYYY-MM-DD HH:MM` of a wall-clock Date. */
export function formatWallClock(d: Date): string {
  return d.toISOString().slice(0, 16).replace('T', ' ');
}
