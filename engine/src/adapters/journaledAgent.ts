/**
 * What the in-process agents that journal their conversation share (`chatbot`, `openai-http`): the
 * entries kept in `conversation.jsonl` of the agent's folder, each appended as one whole line, the
 * one turn in flight, and the failure the engine's next call reports. Each agent keeps its own
 * kinds of entry and how it asks its model.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { appendLine, loadJsonLinesForAppend } from '../jsonl';
import { PendingFailure } from './failure';

/** `Entry`: the agent's kinds of journal line, of which only replies carry a `seq`. */
export abstract class JournaledAgent<Entry extends { kind: string; seq?: number }> {
  readonly quietPeriodMs = 500;
  protected entries: Entry[] = [];
  /** The turn in flight, if any: a message is sent only once the one before it is answered. */
  protected busy: Promise<void> | undefined;
  protected readonly failure = new PendingFailure();
  private readonly file: string;

  constructor(
    protected readonly dir: string,
    protected readonly now: () => Date = () => new Date(),
  ) {
    this.file = join(dir, 'conversation.jsonl');
  }

  async close(): Promise<void> {
    await this.busy?.catch(() => undefined);
  }

  /** Reads the journal back, as a resumed run finds it. */
  protected loadJournal(): void {
    mkdirSync(this.dir, { recursive: true });
    this.entries = loadJsonLinesForAppend<Entry>(this.file);
  }

  /** Forgets everything: the turn in flight settles, then the folder, the entries and any failure go. */
  protected async dropJournal(): Promise<void> {
    await this.busy?.catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
    this.entries = [];
    this.failure.clear();
  }

  /** The number of the next reply: one past the highest journaled. */
  protected nextSeq(): number {
    return this.entries.reduce((n, e) => Math.max(n, e.seq ?? 0), 0) + 1;
  }

  /** Journals the entry as one whole line (a full disk leaves none of it), then keeps it. */
  protected append(entry: Entry): void {
    mkdirSync(this.dir, { recursive: true });
    appendLine(this.file, entry);
    this.entries.push(entry);
  }
}
