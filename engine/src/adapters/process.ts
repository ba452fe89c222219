/**
 * `process`: any program that speaks the agent protocol (docs/agent-protocol.md) over its stdio,
 * in any language. The adapter starts it in the workspace, shakes hands (protocol version and the
 * optional methods it supports), and maps each member of the adapter interface to one request.
 * The keys of the messages it accepted are journaled in the run's folder, so a resumed run never
 * sends one twice even when the program forgets.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { isDiskFullCode } from '../diskFull';
import { AgentStartFailure, ConfigError, DiskFull } from '../errors';
import { appendLine, loadJsonLinesForAppend } from '../jsonl';
import { programFound, sandboxedCommand } from './agentSandbox';
import { AgentChannelFailure, AgentProtocolError, cannotStart, ProcessChannel } from './processChannel';
import { parseHandshake, parseMessages, parseStatus, PROTOCOL_VERSION, type Handshake } from './processProtocol';
import type { AgentAdapter, AgentMessage, AgentStatus, SendOptions } from '../protocol/agent';

export interface ProcessOptions {
  command: string[];
  /** The folder the program runs in: the workspace. */
  cwd: string;
  /**
   * What the program gets besides MMB_AGENT_HOME and MMB_AGENT_PROTOCOL: the allow-list of processEnv.ts, never the
   * engine's whole environment.
   */
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** In the sandbox of agentSandbox.ts, by this bwrap (its home writable, the engine's processes out of view); `none`: as the user. */
  sandbox: { bwrap: string } | 'none';
}

/** The `command` run key: a program and its arguments, each a bounded string. */
export function processCommand(value: unknown): string[] {
  const problem =
    'the process agent needs `command`, its program and arguments as a list of strings, e.g. "command": ["python3", "agents/my_agent.py"]';
  if (!Array.isArray(value) || value.length === 0 || value.length > 64) throw new ConfigError(`${problem}.`);
  if (!value.every((part): part is string => typeof part === 'string' && part.length > 0 && part.length <= 4096 && !part.includes('\0')))
    throw new ConfigError(`${problem}; each part a non-empty string.`);
  return value;
}

export class ProcessAdapter implements AgentAdapter {
  readonly quietPeriodMs = 1000;
  readonly pollIntervalMs = 50;
  private channel: Promise<ProcessChannel> | undefined;
  private handshake: Handshake | undefined;
  private keys = new Set<string>();
  private readonly keysFile: string;

  /** `home` is the program's own folder for its state (MMB_AGENT_HOME); `runDir` the run's, for the adapter's key journal. */
  constructor(
    private readonly home: string,
    runDir: string,
    private readonly options: ProcessOptions,
  ) {
    this.keysFile = join(runDir, 'process-sent.jsonl');
  }

  async createSession(name: string): Promise<void> {
    mkdirSync(this.home, { recursive: true });
    this.keys = new Set(loadJsonLinesForAppend<{ key: string }>(this.keysFile).map((entry) => entry.key));
    await this.call('create', { name });
  }

  async sendMessage(text: string, options: SendOptions): Promise<void> {
    if (this.keys.has(options.idempotencyKey)) return;
    await this.call('send', { text, key: options.idempotencyKey });
    appendLine(this.keysFile, { key: options.idempotencyKey });
    this.keys.add(options.idempotencyKey);
  }

  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    return parseMessages(await this.call('responses', { after: afterSeq }), afterSeq);
  }

  async destroySession(): Promise<void> {
    await this.call('destroy', {});
    rmSync(this.keysFile, { force: true });
    this.keys.clear();
  }

  async startNewConversation(): Promise<void> {
    if (await this.supports('new_conversation')) await this.call('new_conversation', {});
  }

  async setVirtualTime(iso: string): Promise<void> {
    if (await this.supports('set_time')) await this.call('set_time', { time: iso });
  }

  async getStatus(): Promise<AgentStatus> {
    if (!(await this.supports('status'))) return { state: 'unknown', compactions: null, contextTokens: null };
    return parseStatus(await this.call('status', {}));
  }

  memoryDir(): string | undefined {
    const dir = this.handshake?.memoryDir;
    if (dir === undefined) return this.home;
    const path = resolve(this.home, dir);
    // The snapshot copies this folder: one outside the agent's home is refused, not copied.
    const inside = relative(this.home, path);
    return inside.startsWith('..') || isAbsolute(inside) ? this.home : path;
  }

  async close(): Promise<void> {
    const channel = this.channel;
    this.channel = undefined;
    this.handshake = undefined;
    await (await channel?.catch(() => undefined))?.close();
  }

  /** The handshake's answer to "does it implement this optional method?" (`set_time`: it claims virtual time). */
  async supports(method: string): Promise<boolean> {
    await this.started();
    return this.handshake?.methods.includes(method) ?? false;
  }

  private async call(method: string, params: Record<string, unknown>): Promise<unknown> {
    const channel = await this.started();
    try {
      return await channel.request(method, params);
    } catch (e) {
      // A dead program is started again at the next call: a resumed run attaches to its saved state.
      if (!(e instanceof AgentProtocolError)) await this.close().catch(() => undefined);
      // The program's own disk is full (it answered with the system's code): the run stops to resume, as for the engine's.
      if (e instanceof AgentProtocolError && isDiskFullCode(e.agentCode))
        throw new DiskFull(this.home, { cause: e, readOnly: e.agentCode === 'EROFS' });
      throw e;
    }
  }

  /** The running program, started and greeted once however many calls wait for it. */
  private started(): Promise<ProcessChannel> {
    this.channel ??= this.start();
    return this.channel;
  }

  private async start(): Promise<ProcessChannel> {
    mkdirSync(this.home, { recursive: true });
    const env = { ...this.options.env, MMB_AGENT_HOME: this.home, MMB_AGENT_PROTOCOL: String(PROTOCOL_VERSION) };
    const { cwd, sandbox } = this.options;
    const program = this.options.command[0] ?? '';
    if (sandbox !== 'none' && !programFound(program, cwd, this.options.env.PATH))
      throw new AgentStartFailure(cannotStart(program, `spawn ${program} ENOENT`));
    const command =
      sandbox === 'none'
        ? this.options.command
        : sandboxedCommand(sandbox.bwrap, this.options.command, { home: this.home, workspace: cwd });
    const channel = new ProcessChannel({ command, cwd, env, timeoutMs: this.options.timeoutMs });
    try {
      this.handshake = parseHandshake(
        await channel.request('initialize', { protocol: PROTOCOL_VERSION, home: this.home }, Math.min(this.options.timeoutMs, 30_000)),
      );
    } catch (e) {
      this.channel = undefined;
      // Closed first: its stderr is then read to the end, so the failure ends with its last words.
      await channel.close().catch(() => undefined);
      throw startFailure(e, channel.lastLogged());
    }
    return channel;
  }
}

/** A failed spawn or handshake as the run's crash: the reason, and the program's last lines on stderr. */
function startFailure(error: unknown, stderr: readonly string[]): AgentStartFailure {
  const reason = error instanceof AgentChannelFailure ? error.reason : error instanceof Error ? error.message : String(error);
  return new AgentStartFailure(reason, { cause: error, stderr });
}
