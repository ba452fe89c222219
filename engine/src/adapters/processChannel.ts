/**
 * The JSON-lines channel to an agent's own program (docs/agent-protocol.md): one request per line
 * on its stdin, replies and events per line on its stdout. Everything the child prints is
 * untrusted: lines are bounded, a line that is not the protocol stops the child, and a child that
 * dies or stays silent fails every pending request with one clear line instead of a hang.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { AGENT_GROUP_VARIABLE, endAgentGroup, newAgentGroupMark, registerAgentGroup, type AgentGroup } from './agentProcesses';

/** A protocol line longer than this is a broken or hostile agent. */
export const MAX_PROTOCOL_LINE = 1_048_576;
/** How long a program has to exit on its own after `shutdown` and its stdin's end, before its group is ended. */
const SHUTDOWN_GRACE_MS = 1000;
/** Lines of stderr (and `log` events) kept to explain a failure. */
const STDERR_TAIL_LINES = 20;
const STDERR_LINE_CHARS = 300;
/** How long a stopped program's stderr may take to be read to its end before its pipes are destroyed. */
const STDERR_DRAIN_MS = 500;

export interface ChannelOptions {
  command: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How long one request may wait for its reply. */
  timeoutMs: number;
}

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** An error the agent returned as data: `{"id", "error": {"code", "message"}}`; `agentCode` its `code` (bounded), if a string. */
export class AgentProtocolError extends Error {
  constructor(
    message: string,
    readonly agentCode?: string,
  ) {
    super(message);
  }
}

/**
 * A failure of the channel itself: the program did not start, died, broke the protocol or did not
 * answer in time. `reason` is the message without the agent's last log lines the message ends with.
 */
export class AgentChannelFailure extends Error {
  constructor(
    readonly reason: string,
    explained: string,
  ) {
    super(`${reason}${explained}`);
  }
}

export class ProcessChannel {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, Pending>();
  private readonly tail: string[] = [];
  private nextId = 1;
  private buffer = '';
  private failure: Error | undefined;
  private readonly group: AgentGroup | undefined;
  private readonly stderrClosed: Promise<void>;

  constructor(private readonly options: ChannelOptions) {
    const [program, ...args] = options.command;
    if (!program) throw new Error("the agent's command is empty");
    const mark = newAgentGroupMark();
    // A group of its own (detached), so that ending it ends the daemons it started; the mark finds those that left it.
    // Windows has no process groups, and there detached would open a console window of its own.
    this.child = spawn(program, args, {
      cwd: options.cwd,
      env: { ...options.env, [AGENT_GROUP_VARIABLE]: mark },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    if (this.child.pid !== undefined) {
      this.group = { pid: this.child.pid, mark };
      registerAgentGroup(this.group);
    }
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.stderrClosed = new Promise((resolve) => this.child.stderr.once('close', () => resolve()));
    this.child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    this.child.stderr.on('data', (chunk: string) => this.remember(chunk));
    this.child.on('error', (error) => this.fail(cannotStart(program, error.message)));
    this.child.on('exit', (code, signal) => this.fail(`the agent's program exited (${signal ?? `code ${code}`})`));
    // A child that closed its stdin: the write error arrives here, and the exit explains it.
    this.child.stdin.on('error', () => undefined);
  }

  /** Sends one request and waits for its reply's `result`; an `error` reply rejects with AgentProtocolError. */
  request(method: string, params: Record<string, unknown> = {}, timeoutMs = this.options.timeoutMs): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new AgentChannelFailure(`the agent did not answer \`${method}\` within ${Math.round(timeoutMs / 1000)} s`, this.explained()),
        );
      }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  }

  /**
   * Stops the program and everything it started: a polite `shutdown` first and its stdin closed, then its group
   * and marked processes SIGTERM and SIGKILL (agentProcesses.ts). Its pipes are destroyed last, so that a daemon
   * holding them open never keeps the engine waiting.
   */
  async close(): Promise<void> {
    if (this.running()) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      await Promise.race([this.request('shutdown', {}, 2000).catch(() => undefined), exited]);
      this.child.stdin.end();
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
    }
    if (this.group) await endAgentGroup(this.group);
    // Where there is no group to signal (Windows), the program itself.
    if (this.running()) this.child.kill('SIGKILL');
    // What it wrote before it ended is read before its pipes go: a failure to start ends with its last words.
    await this.stderrDrained(STDERR_DRAIN_MS);
    this.release();
  }

  private running(): boolean {
    return this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  private release(): void {
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) stream.destroy();
    this.child.unref();
  }

  /** The agent's last lines on stderr (and `log` events), oldest first, each bounded. */
  lastLogged(): readonly string[] {
    return [...this.tail];
  }

  /**
   * Resolves once the program's stderr has closed (all it wrote is read), or after `timeoutMs` (a process that left its
   * group may hold the pipe).
   */
  private async stderrDrained(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.stderrClosed, waited]);
    clearTimeout(timer);
  }

  private onStdout(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, end).trim();
      this.buffer = this.buffer.slice(end + 1);
      if (line) this.onLine(line);
      if (this.failure) return;
    }
    if (this.buffer.length > MAX_PROTOCOL_LINE) this.broken(`printed a line longer than ${MAX_PROTOCOL_LINE} characters`);
  }

  private onLine(line: string): void {
    if (line.length > MAX_PROTOCOL_LINE) return this.broken(`printed a line longer than ${MAX_PROTOCOL_LINE} characters`);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.broken(
        `printed a line that is not JSON: ${JSON.stringify(line.slice(0, 120))} (logs go to stderr; stdout holds protocol lines only)`,
      );
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return this.broken('printed JSON that is not an object');
    const record = message as Record<string, unknown>;
    if (typeof record.event === 'string') {
      if (record.event === 'log') this.remember(`${typeof record.text === 'string' ? record.text : ''}\n`);
      return;
    }
    const pending = typeof record.id === 'number' ? this.pending.get(record.id) : undefined;
    if (!pending) return this.broken(`answered an id it was never sent (${JSON.stringify(record.id)})`);
    this.pending.delete(record.id as number);
    clearTimeout(pending.timer);
    if (record.error !== undefined)
      pending.reject(
        new AgentProtocolError(`the agent refused \`${pending.method}\`: ${errorText(record.error)}`, errorCode(record.error)),
      );
    else pending.resolve(record.result ?? null);
  }

  private broken(what: string): void {
    this.fail(`the agent ${what}`);
    this.child.kill('SIGKILL');
  }

  private fail(message: string): void {
    if (this.failure) return;
    this.failure = new AgentChannelFailure(message, this.explained());
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(this.failure);
      this.pending.delete(id);
    }
  }

  private remember(text: string): void {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      this.tail.push(line.slice(0, STDERR_LINE_CHARS));
      if (this.tail.length > STDERR_TAIL_LINES) this.tail.shift();
    }
  }

  /** The last lines the agent logged, as the end of an error message. */
  private explained(): string {
    const last = this.tail.slice(-3).join(' | ');
    return last ? `; it last logged: ${last}` : '';
  }
}

/** The line of a program that did not start: the spawn's own error, or the same error the sandbox would hide. */
export function cannotStart(program: string, reason: string): string {
  return `the agent's command ${JSON.stringify(program)} could not start: ${reason}`;
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error.slice(0, 500);
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message.slice(0, 500) : JSON.stringify(error).slice(0, 500);
    return typeof code === 'string' ? `${code.slice(0, 60)}: ${text}` : text;
  }
  return String(error).slice(0, 500);
}

/** The `code` of an error the agent returned, when it is a short string (`ENOSPC`: its disk is full). */
function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code.slice(0, 60) : undefined;
}
