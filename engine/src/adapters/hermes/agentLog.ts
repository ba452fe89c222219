/**
 * What Hermes's `$HERMES_HOME/logs/agent.log` says, read as it grows: its compressions
 * (`context compression started: session=… messages=N tokens=~X …` then `context compression
 * done: session=… messages=A->B rough_tokens=~Y …`) and the prompt size of each session's last
 * model call (`API call #N: … in=X …`). Hermes rotates the file at 5 MB: a new file (another
 * inode, or a smaller size) is read from its start, and what was read before is kept.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import type { AgentStatus } from '../../protocol/agent';

/** A compression as logged, with the session it was logged under. */
export type LoggedCompaction = NonNullable<AgentStatus['compactions']>[number] & { session: string };

/** At most this much is read at once: a log that grew more since is read from that far before its end. */
const MAX_READ_BYTES = 8 * 1024 * 1024;
/** A line longer than this is not one of the lines read here: its start is dropped. */
const MAX_LINE_CHARS = 64 * 1024;

const STARTED = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) .*context compression started: session=(\S+) messages=(\d+) tokens=~([\d,]+)/;
const DONE =
  /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) .*context compression done: session=(\S+) messages=(\d+)->(\d+) rough_tokens=~([\d,]+)/;
const API_CALL = /^\S+ \S+ INFO \[(\S+)\] agent\.conversation_loop: API call #\d+: .* in=(\d+) /;

export class AgentLog {
  readonly compactions: LoggedCompaction[] = [];
  readonly lastPromptTokens = new Map<string, number>();
  private offset = 0;
  private inode = -1;
  private partial = '';
  /** Compressions started and not done yet. */
  private readonly open: { session: string; at: string; tokensBefore: number }[] = [];

  constructor(private readonly path: string) {}

  /** Reads what was appended since the last call; false while there is no log. */
  update(): boolean {
    if (!existsSync(this.path)) return false;
    const stat = statSync(this.path);
    if (stat.ino !== this.inode || stat.size < this.offset) {
      this.inode = stat.ino;
      this.offset = 0;
      this.partial = '';
    }
    if (stat.size === this.offset) return true;
    const start = Math.max(this.offset, stat.size - MAX_READ_BYTES);
    const buffer = Buffer.alloc(stat.size - start);
    const fd = openSync(this.path, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, start);
    } finally {
      closeSync(fd);
    }
    const text = buffer.toString('utf8');
    const lines = (start > this.offset ? text.replace(/^[^\n]*\n/, '') : this.partial + text).split('\n');
    this.offset = stat.size;
    this.partial = (lines.pop() ?? '').slice(-MAX_LINE_CHARS);
    for (const line of lines) this.read(line);
    return true;
  }

  /**
   * One line. A `done` line closes the `started` line of its session, or else the latest one
   * open: a compression that moves the conversation to a new session may log the new id.
   */
  private read(line: string): void {
    const started = STARTED.exec(line);
    if (started) {
      this.open.push({
        session: started[3] ?? '',
        at: localIso(started[1] ?? '', started[2] ?? '000'),
        tokensBefore: tokenCount(started[5]),
      });
      return;
    }
    const done = DONE.exec(line);
    if (done) {
      const index = this.open.findLastIndex((entry) => entry.session === done[3]);
      const [begun] = index >= 0 ? this.open.splice(index, 1) : this.open.splice(-1, 1);
      this.compactions.push({
        session: begun?.session ?? done[3] ?? '',
        at: begun?.at ?? localIso(done[1] ?? '', done[2] ?? '000'),
        ...(begun ? { tokensBefore: begun.tokensBefore } : {}),
        tokensAfter: tokenCount(done[6]),
      });
      return;
    }
    const call = API_CALL.exec(line);
    if (call) this.lastPromptTokens.set(call[1] ?? '', Number(call[2]));
  }
}

/** The whole log read once (for a test or a look). */
export function readAgentLog(path: string): AgentLog | undefined {
  const log = new AgentLog(path);
  return log.update() ? log : undefined;
}

function tokenCount(text: string | undefined): number {
  return Number((text ?? '').replace(/,/g, ''));
}

/** Hermes logs the machine's local time: read as such, it is the real moment, as the journal stamps events. */
function localIso(stamp: string, millis: string): string {
  const date = new Date(`${stamp.replace(' ', 'T')}.${millis}`);
  return Number.isNaN(date.getTime()) ? stamp : date.toISOString();
}
