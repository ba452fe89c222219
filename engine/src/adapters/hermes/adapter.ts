/**
 * `hermes`: the real Hermes agent (hermes-agent 0.19.0) over its gateway's sessions API. By
 * default the adapter starts its own gateway with a `$HERMES_HOME` under the run's folder and the
 * run's `agent_model` (options.ts); with `hermes_url` it attaches to a gateway the user runs.
 * A new conversation is a new session over the same memory (`memories/MEMORY.md`, `USER.md`);
 * compactions and context sizes come from its `logs/agent.log`. The API cannot deduplicate a
 * chat request, so a turn sent before a restart is looked up in the session's messages before it
 * is sent again.
 */
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PendingFailure } from '../failure';
import { toolCallsFromChat } from '../toolCalls';
import type { AgentAdapter, AgentMessage, AgentStatus, AgentToolCall, SendOptions } from '../../protocol/agent';
import { HermesApi, type HermesMessage } from './api';
import { killGroup, startGateway, stopGateway } from './gateway';
import { AgentLog, type LoggedCompaction } from './agentLog';
import { resetHome, writeCompressionInto } from './home';
import type { HermesOptions } from './options';

/** A message the engine sent: `afterId` is the last message of the session before it went out. */
interface Turn {
  key: string;
  text: string;
  afterId?: number;
  answered: boolean;
}

interface Saved {
  /** The gateway this adapter started, so that one left by a killed engine is stopped. */
  gatewayPid?: number;
  sessionId?: string;
  /** Every session this run talked in: an attached home's log holds other sessions' compressions too. */
  sessions: string[];
  replies: AgentMessage[];
  turns: Turn[];
  /** The last turn's `usage.input_tokens`, for when no log can be read. */
  usageTokens: number | null;
  /** The compressions of this run's sessions read so far: kept here, as Hermes rotates its log. */
  compactions: LoggedCompaction[];
}

const emptySaved = (): Saved => ({ sessions: [], replies: [], turns: [], usageTokens: null, compactions: [] });
const RECOVERY_POLL_MS = 2000;

export class HermesAdapter implements AgentAdapter {
  readonly quietPeriodMs = 2000;
  readonly pollIntervalMs = 250;
  private saved: Saved = emptySaved();
  private api: HermesApi | undefined;
  private gateway: ChildProcess | undefined;
  private busy: Promise<void> | undefined;
  private log: AgentLog | undefined;
  private readonly failure = new PendingFailure();

  constructor(
    private readonly dir: string,
    private readonly options: HermesOptions,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get file(): string {
    return join(this.dir, 'hermes.json');
  }

  /** The `$HERMES_HOME` this adapter can read: its own, or the one a user named. */
  get home(): string | undefined {
    return this.options.managed ? join(this.dir, 'home') : this.options.attach?.home;
  }

  async createSession(name: string): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    if (existsSync(this.file)) this.saved = { ...emptySaved(), ...(JSON.parse(readFileSync(this.file, 'utf8')) as Partial<Saved>) };
    this.api = await this.connect();
    if (!this.saved.sessionId) this.adopt(await this.api.createSession(name));
    const pending = this.saved.turns.filter((turn) => !turn.answered);
    if (pending.length) this.track(pending.reduce((chain, turn) => chain.then(() => this.recover(turn)), Promise.resolve()));
  }

  async sendMessage(text: string, options: SendOptions): Promise<void> {
    this.failure.throwIfAny();
    if (this.saved.turns.some((turn) => turn.key === options.idempotencyKey)) return;
    await this.busy;
    const turn: Turn = { key: options.idempotencyKey, text, answered: false };
    this.saved.turns.push(turn);
    this.save();
    this.track(this.play(turn));
  }

  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    this.failure.throwIfAny();
    return this.saved.replies.filter((message) => message.seq > afterSeq);
  }

  async getStatus(): Promise<AgentStatus> {
    const log = this.readLog();
    const contextTokens = (this.saved.sessionId ? log?.lastPromptTokens.get(this.saved.sessionId) : undefined) ?? this.saved.usageTokens;
    const compactions = log
      ? this.saved.compactions.map((c) => ({
          at: c.at,
          ...(c.tokensBefore === undefined ? {} : { tokensBefore: c.tokensBefore }),
          ...(c.tokensAfter === undefined ? {} : { tokensAfter: c.tokensAfter }),
        }))
      : null;
    return { state: this.busy ? 'thinking' : 'idle', compactions, contextTokens };
  }

  async startNewConversation(): Promise<void> {
    await this.busy;
    this.saved.usageTokens = null;
    this.adopt(await this.connected().createSession(`new conversation ${this.saved.replies.length + 1}`));
  }

  async destroySession(): Promise<void> {
    await this.busy?.catch(() => undefined);
    if (this.options.managed) {
      await this.stop();
      const home = this.home;
      if (home) resetHome(home);
    } else {
      await this.resetAttached();
    }
    rmSync(this.file, { force: true });
    this.saved = emptySaved();
    this.log = undefined;
  }

  memoryDir(): string | undefined {
    return this.home ? join(this.home, 'memories') : undefined;
  }

  async close(): Promise<void> {
    await this.busy?.catch(() => undefined);
    await this.stop();
  }

  /** Starts the run's own gateway (stopping one a killed engine left), or merges keys into the attached one's config. */
  private async connect(): Promise<HermesApi> {
    const { managed, attach, compression } = this.options;
    if (managed) {
      if (this.saved.gatewayPid) killGroup(this.saved.gatewayPid, 'SIGKILL');
      const started = await startGateway(join(this.dir, 'home'), managed, compression, join(this.dir, 'gateway.log'));
      this.gateway = started.child;
      if (started.child.pid) this.saved.gatewayPid = started.child.pid;
      this.save();
      return new HermesApi(started.url, managed.apiKey);
    }
    if (!attach) throw new Error('hermes: neither a gateway to start nor one to attach to');
    if (attach.home) writeCompressionInto(attach.home, compression);
    return new HermesApi(attach.url, attach.apiKey);
  }

  private async stop(): Promise<void> {
    await stopGateway(this.gateway);
    this.gateway = undefined;
    if (this.saved.gatewayPid) killGroup(this.saved.gatewayPid, 'SIGKILL');
    delete this.saved.gatewayPid;
  }

  /** The reset of a gateway the user runs: their reset command, else this run's session and the memory files. */
  private async resetAttached(): Promise<void> {
    const attach = this.options.attach;
    if (this.api && this.saved.sessionId) await this.api.deleteSession(this.saved.sessionId).catch(() => undefined);
    if (attach?.resetCommand) await runCommand(attach.resetCommand);
    else if (attach?.home) rmSync(join(attach.home, 'memories'), { recursive: true, force: true });
  }

  private connected(): HermesApi {
    if (!this.api) throw new Error('hermes: createSession has not run');
    return this.api;
  }

  private track(work: Promise<void>): void {
    const tracked: Promise<void> = work
      .catch((error: unknown) => {
        this.failure.set(new Error(`hermes: ${error instanceof Error ? error.message : String(error)}`));
      })
      .finally(() => {
        if (this.busy === tracked) this.busy = undefined;
      });
    this.busy = tracked;
  }

  /** Sends a turn: the session's last message id is saved first, so that a restart can find the turn. */
  private async play(turn: Turn): Promise<void> {
    const api = this.connected();
    const before = await api.messages(this.saved.sessionId ?? '');
    turn.afterId = before.rows.reduce((max, row) => Math.max(max, row.id), 0);
    this.adopt(before.sessionId);
    const result = await api.chat(before.sessionId, turn.text, { idleMs: this.options.idleTimeoutMs, turnMs: this.options.turnTimeoutMs });
    this.adopt(result.sessionId);
    this.saved.usageTokens = typeof result.usage?.input_tokens === 'number' ? result.usage.input_tokens : this.saved.usageTokens;
    this.answer(turn, result.content, result.toolCalls);
  }

  /**
   * A turn sent before a restart. Found answered in the session, its reply is taken; not found,
   * it is sent. Found unanswered: an attached gateway may still be working on it, so its reply is
   * waited for; the run's own gateway died with the engine, so the turn is sent again (Hermes
   * then holds the message twice, but never answers it twice).
   */
  private async recover(turn: Turn): Promise<void> {
    if (turn.afterId === undefined) return this.play(turn);
    const deadline = Date.now() + this.options.turnTimeoutMs;
    for (;;) {
      const { sessionId, rows } = await this.connected().messages(this.saved.sessionId ?? '');
      this.adopt(sessionId);
      const found = findTurn(rows, turn);
      if (!found) return this.play(turn);
      if (found.reply !== undefined) return this.answer(turn, found.reply, found.toolCalls);
      if (this.options.managed) return this.play(turn);
      if (Date.now() > deadline)
        throw new Error(
          `the turn "${turn.text.slice(0, 60)}" reached Hermes but got no reply within ${this.options.turnTimeoutMs / 1000} s`,
        );
      await new Promise((resolve) => setTimeout(resolve, RECOVERY_POLL_MS));
    }
  }

  /** The log read up to now, with the compressions of this run's sessions saved; undefined without a log. */
  private readLog(): AgentLog | undefined {
    const home = this.home;
    if (!home) return undefined;
    this.log ??= new AgentLog(join(home, 'logs', 'agent.log'));
    if (!this.log.update()) return undefined;
    const known = new Set(this.saved.compactions.map((c) => `${c.session}@${c.at}`));
    const fresh = this.log.compactions.filter((c) => this.saved.sessions.includes(c.session) && !known.has(`${c.session}@${c.at}`));
    if (fresh.length) {
      this.saved.compactions.push(...fresh);
      this.save();
    }
    return this.log;
  }

  /** The session Hermes says the conversation is in now (a compression may move it). */
  private adopt(sessionId: string): void {
    this.saved.sessionId = sessionId;
    if (!this.saved.sessions.includes(sessionId)) this.saved.sessions.push(sessionId);
    this.save();
  }

  private answer(turn: Turn, text: string, toolCalls: AgentToolCall[] = []): void {
    turn.answered = true;
    this.saved.replies.push({
      seq: this.saved.replies.length + 1,
      text,
      at: this.now().toISOString(),
      ...(toolCalls.length ? { toolCalls } : {}),
    });
    this.save();
  }

  private save(): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(this.file, JSON.stringify(this.saved));
  }
}

/** The turn's user message after `afterId`, and the final reply to it if Hermes gave one, with the tool calls before it. */
export function findTurn(rows: readonly HermesMessage[], turn: Turn): { reply?: string; toolCalls?: AgentToolCall[] } | undefined {
  // The last copy: an in-place compression rewrites the session, earlier messages included, with new ids.
  const index = rows.findLastIndex((row) => row.id > (turn.afterId ?? 0) && row.role === 'user' && row.content === turn.text);
  if (index < 0) return undefined;
  const after = rows.slice(index + 1);
  const end = after.findIndex((row) => row.role === 'user');
  const answer = end < 0 ? after : after.slice(0, end);
  const reply = answer.filter((row) => row.role === 'assistant' && !row.hasToolCalls && row.content).at(-1);
  return reply ? { reply: reply.content, toolCalls: toolCallsFromChat(answer.slice(0, answer.indexOf(reply)).map((row) => row.chat)) } : {};
}

function runCommand(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], { timeout: 300_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`the reset command \`${command}\` failed: ${stderr.trim() || error.message}`));
      else resolve();
    });
  });
}
