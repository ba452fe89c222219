/**
 * Where a run's state lives. `FileRunStore` keeps `results/<id>/state.json` (a snapshot) and
 * `journal.jsonl` (the events since): appending an event costs the same however long the run,
 * and a snapshot is rewritten only when the journal has grown as large as it, so the total cost
 * stays linear. A process killed at any moment loses at most the event it was writing.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonLines } from '../jsonl';
import { JOURNAL_FILE, STATE_FILE } from '../protocol/layout';
import { applyEvent, emptyState, type RunEvent, type RunState } from '../state/runState';

export interface RunStore {
  /** The saved state, or undefined for a run never started. */
  load(): RunState | undefined;
  /** Applies the event to the state and saves it before returning. */
  append(state: RunState, event: RunEvent): void;
  /** Writes a full snapshot now (at the end of a run). */
  flush(state: RunState): void;
}

const MIN_JOURNAL_BYTES = 256 * 1024;

export class FileRunStore implements RunStore {
  private journalBytes = 0;
  private snapshotBytes = 0;

  constructor(readonly dir: string) {}

  load(): RunState | undefined {
    const statePath = join(this.dir, STATE_FILE);
    const journalPath = join(this.dir, JOURNAL_FILE);
    if (!existsSync(statePath) && !existsSync(journalPath)) return undefined;
    let state = emptyState();
    if (existsSync(statePath)) {
      const text = readFileSync(statePath, 'utf8');
      this.snapshotBytes = text.length;
      try {
        state = JSON.parse(text) as RunState;
      } catch (e) {
        throw new Error(`${statePath} is not valid JSON (${(e as Error).message}); delete the folder ${this.dir} to restart the run.`, { cause: e });
      }
    }
    if (existsSync(journalPath)) {
      const text = readFileSync(journalPath, 'utf8');
      this.journalBytes = text.length;
      // The last line may be cut short by a kill mid-write; anything earlier is damage.
      const { entries, damaged } = parseJsonLines<RunEvent & { n: number }>(text);
      if (damaged) throw new Error(`${journalPath} line ${damaged.line} is damaged (${damaged.message}); delete the folder ${this.dir} to restart the run.`);
      for (const { value: event } of entries) if (event.n > state.events) applyEvent(state, event);
    }
    return state;
  }

  append(state: RunState, event: RunEvent): void {
    applyEvent(state, event);
    if (!existsSync(this.dir)) mkdirSync(this.dir, { recursive: true });
    const line = `${JSON.stringify({ n: state.events, ...event })}\n`;
    appendFileSync(join(this.dir, JOURNAL_FILE), line);
    this.journalBytes += line.length;
    if (this.journalBytes > Math.max(MIN_JOURNAL_BYTES, this.snapshotBytes)) this.flush(state);
  }

  flush(state: RunState): void {
    mkdirSync(this.dir, { recursive: true });
    const text = JSON.stringify(state);
    const tmp = join(this.dir, `${STATE_FILE}.tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, join(this.dir, STATE_FILE));
    this.snapshotBytes = text.length;
    const journal = join(this.dir, JOURNAL_FILE);
    if (existsSync(journal)) truncateSync(journal, 0);
    this.journalBytes = 0;
  }

  /** Deletes the run's saved state (a restart). */
  reset(): void {
    rmSync(this.dir, { recursive: true, force: true });
    this.journalBytes = 0;
    this.snapshotBytes = 0;
  }

  static exists(dir: string): boolean {
    return existsSync(join(dir, STATE_FILE)) || (existsSync(join(dir, JOURNAL_FILE)) && statSync(join(dir, JOURNAL_FILE)).size > 0);
  }
}

/** A store in memory, for tests. */
export class MemoryRunStore implements RunStore {
  events: RunEvent[] = [];
  load(): RunState | undefined {
    if (this.events.length === 0) return undefined;
    const s = emptyState();
    for (const e of this.events) applyEvent(s, e);
    return s;
  }
  append(state: RunState, event: RunEvent): void {
    applyEvent(state, event);
    this.events.push(event);
  }
  flush(): void {}
}
