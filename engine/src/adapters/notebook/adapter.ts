/**
 * `notebook`: the project's own reference agent. Any OpenAI-compatible model with tools over a
 * markdown memory folder (list, read, write, edit, delete, search), search over its past
 * conversations, and each note's edit history in git. It compacts its own context, consolidates
 * its notes against the transcript when a conversation ends (the seeds' "dreaming"), warns when a
 * fact is stored in two places with different values, and sees only the head of its index note.
 *
 * Its folder (`results/<id>/agent/`): `memory/` the notes (snapshotted by the engine),
 * `memory.git/` their history, `journal.jsonl` everything said and done, `history/` the finished
 * conversations' transcripts, `consolidations.jsonl` what each consolidation pass did.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatModel } from '../../models/chat';
import { writingFile } from '../../diskFull';
import { countTokens } from '../../models/tokens';
import type { ChatMessage, Usage } from '../../protocol/chat';
import { PendingFailure } from '../failure';
import { type AgentAdapter, type AgentMessage, type AgentStatus, type SendOptions } from '../../protocol/agent';
import { addUsage } from '../../models/usage';
import { NotesHistory } from './git';
import { contextMessages, Journal, lastShownState, transcript, type Entry } from './journal';
import { findConflicts, injectedIndex, Notes } from './notes';
import { notebookPrompt } from './prompts';
import { formatAgentTime, INDEX_FILE } from '../../protocol/notebook';
import type { Doc } from './search';
import { consolidate } from './consolidation';
import { compactIfOverBudget } from './compaction';
import { NOTEBOOK_DEFAULTS, type NotebookOptions } from './options';
import { toolLoop } from './loop';
import type { ToolContext } from './tools';

/** The turns' system message, one object for the process: the prompt only, so its tokens are counted once. */
let systemMessage: ChatMessage | undefined;
const SYSTEM_MESSAGE = (): ChatMessage => (systemMessage ??= { role: 'system', content: notebookPrompt('system') });

const INITIAL_INDEX = '# Memory\n\nThe index of my notes: who the user is, what matters most, and one line per topic note.\n';

export class NotebookAdapter implements AgentAdapter {
  readonly quietPeriodMs = 500;
  readonly pollIntervalMs = 20;
  private readonly journal: Journal;
  private readonly notes: Notes;
  private readonly history: NotesHistory;
  private busy: Promise<void> | undefined;
  private readonly failure = new PendingFailure();
  private virtual: { base: number; real: number } | undefined;
  private tokens = 0;
  private statusTally:
    | { entries: readonly Entry[]; length: number; compactions: NonNullable<AgentStatus['compactions']>; usage: Record<string, Usage> }
    | undefined;
  private contextCache: { entries: readonly Entry[]; length: number; messages: ChatMessage[] } | undefined;

  constructor(
    private readonly dir: string,
    private readonly model: ChatModel,
    private readonly options: NotebookOptions = NOTEBOOK_DEFAULTS,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.journal = new Journal(join(dir, 'journal.jsonl'));
    this.notes = new Notes(join(dir, 'memory'));
    this.history = new NotesHistory(join(dir, 'memory.git'), join(dir, 'memory'));
  }

  async createSession(): Promise<void> {
    mkdirSync(this.notes.dir, { recursive: true });
    await this.history.init();
    this.journal.load();
    this.notes.finishPartial(this.journal.entries.findLast((e): e is Extract<Entry, { kind: 'change' }> => e.kind === 'change'));
    if (this.journal.entries.length === 0) {
      const index = join(this.notes.dir, INDEX_FILE);
      if (!existsSync(index)) writingFile(index, () => writeFileSync(index, INITIAL_INDEX));
      await this.history.commit('the notebook starts', this.time());
    } else {
      // Stopped between a turn's reply and its commit, the commit is made now, as it would have been.
      const pending = this.journal.turnCommit();
      if (pending) await this.history.commit(pending.message, pending.at);
    }
    // No virtual time from the journal: its last `time` is the last jump, and the clock has run on
    // since. The engine's clock (`now`) is already where the run stopped, and the engine sets it again.
    this.virtual = undefined;
    this.tokens = countTokens(this.context());
    if (this.journal.turnInFlight()) this.startTurn();
  }

  async sendMessage(text: string, options: SendOptions): Promise<void> {
    this.failure.throwIfAny();
    if (this.journal.seen(options.idempotencyKey)) return;
    await this.busy;
    if (this.journal.seen(options.idempotencyKey)) return;
    const state = this.state();
    const shown = lastShownState(this.context()) === state;
    this.journal.append({ kind: 'user', key: options.idempotencyKey, text, at: this.time().toISOString(), ...(shown ? {} : { state }) });
    this.startTurn();
  }

  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    this.failure.throwIfAny();
    return this.journal.replies(afterSeq);
  }

  async getStatus(): Promise<AgentStatus> {
    // Tallied from the entries appended since the last call: the engine asks at every poll, and the journal only grows.
    const { entries } = this.journal;
    let tally = this.statusTally;
    if (tally?.entries !== entries || tally.length > entries.length)
      tally = this.statusTally = { entries, length: 0, compactions: [], usage: {} };
    for (; tally.length < entries.length; tally.length++) {
      const e = entries[tally.length]!;
      if (e.kind === 'compaction') tally.compactions.push({ at: e.at, tokensBefore: e.tokensBefore, tokensAfter: e.tokensAfter });
      else if (e.kind === 'usage') addUsage(tally.usage, this.model.name, e);
    }
    return {
      state: this.busy ? 'thinking' : 'idle',
      compactions: [...tally.compactions],
      contextTokens: this.tokens,
      usage: structuredClone(tally.usage),
    };
  }

  async setVirtualTime(iso: string): Promise<void> {
    const base = Date.parse(iso);
    if (Number.isNaN(base)) throw new Error(`setVirtualTime: "${iso}" is not an ISO date.`);
    this.virtual = { base, real: Date.now() };
    this.journal.append({ kind: 'time', iso });
  }

  /** Ends the conversation: consolidates the notes against its transcript, files the transcript, clears the context. */
  async startNewConversation(): Promise<void> {
    await this.busy;
    this.failure.throwIfAny();
    const entries = this.journal.current();
    if (!entries.some((e) => e.kind === 'user')) return;
    const n = this.journal.finished() + 1;
    const text = transcript(entries);
    mkdirSync(join(this.dir, 'history'), { recursive: true });
    const filed = join(this.dir, 'history', `conversation-${String(n).padStart(3, '0')}.md`);
    writingFile(filed, () => writeFileSync(filed, `# Conversation ${n}\n\n${text}\n`));
    try {
      await this.consolidate(n, text);
    } catch (e) {
      throw new Error(`the notebook's consolidation pass after conversation ${n} failed: ${e instanceof Error ? e.message : String(e)}`, {
        cause: e,
      });
    }
    this.journal.append({ kind: 'new-conversation', at: this.time().toISOString() });
    this.tokens = countTokens(this.context());
  }

  async destroySession(): Promise<void> {
    await this.busy?.catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
    this.journal.clear();
    this.failure.clear();
    this.virtual = undefined;
    this.tokens = 0;
  }

  memoryDir(): string {
    return this.notes.dir;
  }

  async close(): Promise<void> {
    await this.busy?.catch(() => undefined);
  }

  /** The turn is a promise of this process: the engine awaits it instead of polling. */
  async whenSettled(): Promise<void> {
    await this.busy?.catch(() => undefined);
  }

  /** The agent's clock: the virtual time when the engine set one, else the run's clock. */
  private time(): Date {
    return this.virtual ? new Date(this.virtual.base + (Date.now() - this.virtual.real)) : this.now();
  }

  /** A consolidation pass's system message: the prompt, the pass's own, the time and the notebook's state. */
  private system(pass: string): ChatMessage {
    return {
      role: 'system',
      content: `${notebookPrompt('system')}\n\n${pass}\n\n# Now\n\nIt is ${formatAgentTime(this.time())}.\n\n${this.state()}`,
    };
  }

  /** What changes as the notebook works: the notes' names and the head of the index (the time is each user message's stamp). */
  private state(): string {
    const names = this.notes.list();
    const index = existsSync(join(this.notes.dir, INDEX_FILE)) ? readFileSync(join(this.notes.dir, INDEX_FILE), 'utf8') : '';
    const shown = names.length > 60 ? `${names.slice(0, 60).join(', ')}, … (${names.length} in all: list_notes)` : names.join(', ');
    return `# Your notes\n\n${shown || 'none yet'}\n\n# ${INDEX_FILE}\n\n${injectedIndex(index, INDEX_FILE).trim()}`;
  }

  /**
   * The conversation as the model sees it. The system message is the prompt alone and the state
   * is journaled with the user message it follows (only when it changed), so no message ever
   * changes once sent: each request repeats the last one, a prefix a provider's cache reuses,
   * and the messages are the same objects turn after turn, so their tokens are counted once.
   */
  private context(): ChatMessage[] {
    // Rebuilt only when the journal grew (it is append-only): a turn asks several times, and each
    // rebuild walks the whole journal. A copy, since the tool loop appends to what it is given.
    const { entries } = this.journal;
    if (this.contextCache?.entries !== entries || this.contextCache.length !== entries.length) {
      this.contextCache = { entries, length: entries.length, messages: [SYSTEM_MESSAGE(), ...contextMessages(this.journal.current())] };
    }
    return [...this.contextCache.messages];
  }

  private tools(): ToolContext {
    return { notes: this.notes, history: this.history, transcripts: () => this.transcripts() };
  }

  /** Finished conversations from `history/`, and the current one. */
  private transcripts(): Doc[] {
    const dir = join(this.dir, 'history');
    const past = existsSync(dir)
      ? readdirSync(dir)
          .sort()
          .map((f) => ({ name: `history/${f}`, text: readFileSync(join(dir, f), 'utf8') }))
      : [];
    return [...past, { name: 'this conversation', text: transcript(this.journal.current()) }];
  }

  private startTurn(): void {
    this.busy = this.turn()
      .catch((e: unknown) => {
        this.failure.set(new Error(`the notebook agent failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e }));
      })
      .finally(() => {
        this.busy = undefined;
      });
  }

  /** A turn, or the rest of one the engine was stopped in: its compaction, once, then the tool loop from where it was. */
  private async turn(): Promise<void> {
    const fresh = this.journal.lastOfTurn()?.kind === 'user';
    if (fresh) await this.compactIfNeeded();
    const reply = await this.toolLoop(this.context(), (m) => this.journal.append({ kind: 'step', message: m }));
    const seq = this.journal.lastSeq() + 1;
    this.journal.append({ kind: 'reply', seq, text: reply, at: this.time().toISOString() });
    await this.commitTurn();
    this.tokens = countTokens(this.context());
  }

  /**
   * The turn's commit: none when it changed no note, else one, written without a git process. A
   * resume commits whatever is left (`createSession`).
   */
  private async commitTurn(): Promise<void> {
    const commit = this.journal.turnCommit();
    const changed = this.journal.turnChangedPaths();
    if (!commit || changed.size === 0) return;
    await this.history.commit(commit.message, commit.at, changed);
  }

  private toolLoop(messages: ChatMessage[], onStep: (m: ChatMessage) => void): Promise<string> {
    return toolLoop(
      { model: this.model, journal: this.journal, maxToolRounds: this.options.maxToolRounds, tools: () => this.tools() },
      messages,
      onStep,
    );
  }

  /** Over the budget, the older turns are replaced by a summary the model writes (`compaction.ts`). */
  private async compactIfNeeded(): Promise<void> {
    await compactIfOverBudget({
      model: this.model,
      journal: this.journal,
      contextTokens: this.options.contextTokens,
      context: this.context(),
      time: () => this.time(),
      state: () => this.state(),
    });
  }

  private consolidate(n: number, text: string): Promise<void> {
    return consolidate(
      {
        dir: this.dir,
        journal: this.journal,
        history: this.history,
        contextTokens: this.options.contextTokens,
        time: () => this.time(),
        system: (pass) => this.system(pass),
        conflicts: () => this.conflicts(),
        toolLoop: (messages, onStep) => this.toolLoop(messages, onStep),
      },
      n,
      text,
    );
  }

  private conflicts() {
    return findConflicts(this.notes.list().map((path) => ({ path, text: this.notes.text(path) })));
  }
}
