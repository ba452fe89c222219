/**
 * Where a run's state lives. `FileRunStore` keeps `results/<id>/state.json` (a snapshot) and
 * `journal.jsonl` (the events since): appending an event costs the same however long the run,
 * and a snapshot is rewritten only when the journal has grown as large as it, so the total cost
 * stays linear. A process killed at any moment loses at most the event it was writing, and that
 * cut line is dropped before the next append.
 */
import { appendFileSync, existsSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDiskFull, makeFolder } from '../diskFull';
import { DiskFull, RunDamaged } from '../errors';
import { JOURNAL_FILE, STATE_FILE } from '../protocol/layout';
import { problemOf, problemText, type Infer } from '../protocol/shape';
import { oneLine, readRunBytes, readRunJson } from '../runFile';
import { maskSecretsDeep } from '../secrets';
import { applyEvent, emptyState, type RunEvent, type RunState } from '../state/runState';
import { JOURNAL_LINE_SHAPE, runEventOf, runStateOf, STORED_STATE_SHAPE } from '../state/stateShape';

export interface RunStore {
  /** The saved state, or undefined for a run never started (no snapshot, and no whole event in the journal). */
  load(): RunState | undefined;
  /** Saves the event, then applies it to the state; on failure the state is left as it was. */
  append(state: RunState, event: RunEvent): void;
  /** Writes a full snapshot now (at the end of a run). */
  flush(state: RunState): void;
}

/** The writes the store makes: `node:fs` in production; tests hand it one that fills the disk. */
export interface StoreFileSystem {
  appendFileSync(path: string, data: string): void;
  writeFileSync(path: string, data: string): void;
  renameSync(from: string, to: string): void;
  truncateSync(path: string, length: number): void;
}

const NODE_FS: StoreFileSystem = { appendFileSync, writeFileSync, renameSync, truncateSync };
const MIN_JOURNAL_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

/**
 * The event in a line that an older engine appended onto a cut one: the cut event never counted,
 * and the whole one after it starts at the line's last `{"n":` (which no JSON string can hold).
 */
function salvaged(line: string): unknown {
  const at = line.lastIndexOf('{"n":');
  if (at <= 0) return undefined;
  try {
    return JSON.parse(line.slice(at)) as unknown;
  } catch {
    return undefined;
  }
}

/** A parsed line of the journal as its event: a line of another shape is damage, named by its number. */
function journalEvent(value: unknown, path: string, lineNumber: number): RunEvent & { n: number } {
  const problem = problemOf(JOURNAL_LINE_SHAPE, value);
  if (problem) throw new RunDamaged(path, JOURNAL_FILE, `line ${lineNumber}: ${oneLine(problemText(problem), 300)}`);
  return runEventOf(value as Infer<typeof JOURNAL_LINE_SHAPE>);
}

export class FileRunStore implements RunStore {
  /** The journal's length in bytes up to its last whole event: where the next one goes. */
  private journalBytes = 0;
  /** The journal on disk ends in a cut line (a kill mid-write, a full disk) to cut off before appending. */
  private journalCut = false;
  private snapshotBytes = 0;

  constructor(
    readonly dir: string,
    private readonly fs: StoreFileSystem = NODE_FS,
  ) {}

  /**
   * Reads the state; never writes, so readers (the editor, reports) may call it while a run goes.
   * A file that is not what the engine writes (of any shape, or no file) throws `RunDamaged`.
   */
  load(): RunState | undefined {
    const statePath = join(this.dir, STATE_FILE);
    const journalPath = join(this.dir, JOURNAL_FILE);
    const snapshot = readRunJson(statePath, STORED_STATE_SHAPE);
    const journal = readRunBytes(journalPath);
    if (!snapshot && !journal) return undefined;
    const state = snapshot ? runStateOf(snapshot.value) : emptyState();
    this.snapshotBytes = snapshot?.bytes ?? 0;
    this.journalBytes = 0;
    this.journalCut = false;
    if (journal) this.replayJournal(state, journal, journalPath);
    // A journal with no whole event (a full disk on its first line, a file emptied) and no
    // snapshot: the run never started, whatever is on disk, and starts afresh.
    if (state.events === 0 && !snapshot) return undefined;
    return state;
  }

  /** Applies the journal's whole lines; a last line cut short (no newline, or not JSON) is left out. */
  private replayJournal(state: RunState, bytes: Buffer, journalPath: string): void {
    const whole = bytes.lastIndexOf(NEWLINE) + 1;
    const lines = bytes.subarray(0, whole).toString('utf8').split('\n');
    lines.pop();
    let offset = 0;
    for (const [i, line] of lines.entries()) {
      const length = Buffer.byteLength(line) + 1;
      let value: unknown;
      try {
        value = line.trim() ? (JSON.parse(line) as unknown) : undefined;
      } catch (e) {
        if (i === lines.length - 1) break;
        value = salvaged(line);
        if (value === undefined)
          throw new RunDamaged(journalPath, JOURNAL_FILE, `line ${i + 1} is not JSON (${oneLine((e as Error).message)})`, { cause: e });
      }
      const event = value === undefined ? undefined : journalEvent(value, journalPath, i + 1);
      if (event && event.n > state.events) applyEvent(state, event);
      offset += length;
    }
    this.journalBytes = offset;
    this.journalCut = offset < bytes.length;
  }

  append(state: RunState, unmasked: RunEvent): void {
    const event = maskSecretsDeep(unmasked);
    if (!existsSync(this.dir)) makeFolder(this.dir);
    const path = join(this.dir, JOURNAL_FILE);
    const line = `${JSON.stringify({ n: state.events + 1, ...event })}\n`;
    this.write(
      path,
      Buffer.byteLength(line),
      () => {
        // A cut line left by a kill is dropped first, or the next event would land on it.
        if (this.journalCut) this.fs.truncateSync(path, this.journalBytes);
        this.journalCut = false;
        this.fs.appendFileSync(path, line);
      },
      () => {
        // Whatever part of the line reached the disk is cut off again: the journal stays whole.
        this.journalCut = true;
        try {
          this.fs.truncateSync(path, this.journalBytes);
          this.journalCut = false;
        } catch {
          // Left for the next append or load to drop.
        }
      },
    );
    this.journalBytes += Buffer.byteLength(line);
    applyEvent(state, event);
    if (this.journalBytes > Math.max(MIN_JOURNAL_BYTES, this.snapshotBytes)) this.flush(state);
  }

  flush(state: RunState): void {
    makeFolder(this.dir);
    const text = JSON.stringify(state);
    const tmp = join(this.dir, `${STATE_FILE}.tmp`);
    this.write(
      tmp,
      Buffer.byteLength(text),
      () => {
        this.fs.writeFileSync(tmp, text);
        this.fs.renameSync(tmp, join(this.dir, STATE_FILE));
      },
      () => rmSync(tmp, { force: true }),
    );
    this.snapshotBytes = Buffer.byteLength(text);
    const journal = join(this.dir, JOURNAL_FILE);
    if (existsSync(journal)) this.fs.truncateSync(journal, 0);
    this.journalBytes = 0;
    this.journalCut = false;
  }

  /** Runs a write; a full disk becomes `DiskFull` after `undo` put the files back as they were. */
  private write(path: string, bytes: number, action: () => void, undo: () => void): void {
    try {
      action();
    } catch (e) {
      if (!isDiskFull(e)) throw e;
      undo();
      throw new DiskFull(path, { cause: e, bytes });
    }
  }

  /** Deletes the run's saved state (a restart). */
  reset(): void {
    rmSync(this.dir, { recursive: true, force: true });
    this.journalBytes = 0;
    this.journalCut = false;
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
