/**
 * `openclaw`: the real OpenClaw agent through its gateway (docs/openclaw-protocol.md). The
 * adapter starts the gateway on loopback with the run's own state folder and workspace (or
 * attaches to a running one by URL and token), points its model provider at the run's
 * `agent_model`, and talks over the gateway's WebSocket: `chat.send` with the engine's
 * idempotency key, `sessions.reset` for a new conversation (memory kept), `chat.history` and
 * `sessions.describe` for compactions and context size; a reply's tool calls are read from the
 * turn's `chat.history` rows (openclawToolCalls.ts). A full reset stops the gateway and wipes
 * its state and workspace. OpenClaw has no virtual time.
 */
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maskSecrets, maskSecretsDeep } from '../secrets';
import { GatewayClient, startGatewayProcess, stopGatewayProcess } from './openclawGateway';
import { openclawToolCalls, rowsOfTurn } from './openclawToolCalls';
import { PendingFailure } from './failure';
import type { AgentAdapter, AgentMessage, AgentStatus, AgentToolCall, SendOptions } from '../protocol/agent';
import type { OpenClawOptions } from './openclawOptions';

interface Saved {
  /** The gateway this adapter started, so that one left by a killed engine can be stopped. */
  gatewayPid?: number;
  replies: AgentMessage[];
  /** Keys sent, in order; a key without a reply is a turn still to collect. */
  keys: string[];
  answered: string[];
  compactions: { at: string; tokensBefore?: number; tokensAfter?: number }[];
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export class OpenClawAdapter implements AgentAdapter {
  readonly quietPeriodMs = 3000;
  readonly pollIntervalMs = 200;
  private gateway: ChildProcess | undefined;
  private client: GatewayClient | undefined;
  private saved: Saved = { replies: [], keys: [], answered: [], compactions: [] };
  private inFlight = new Set<string>();
  private readonly failure = new PendingFailure();
  /** The config holds the model's key, so it lives outside results/, readable by its owner only. */
  private configDir: string | undefined;

  constructor(
    private readonly dir: string,
    private readonly options: OpenClawOptions,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get file(): string {
    return join(this.dir, 'openclaw.json');
  }

  get workspace(): string {
    return join(this.dir, 'workspace');
  }

  async createSession(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    if (existsSync(this.file)) this.saved = JSON.parse(readFileSync(this.file, 'utf8')) as Saved;
    let url: string;
    let token: string;
    if (this.options.attach) {
      ({ url, token } = this.options.attach);
    } else {
      if (this.saved.gatewayPid) {
        try {
          process.kill(-this.saved.gatewayPid, 'SIGKILL');
        } catch {
          // Not running any more.
        }
      }
      token = randomBytes(16).toString('hex');
      const port = await freePort();
      this.configDir = mkdtempSync(join(tmpdir(), 'mmb-openclaw-'));
      const config = join(this.configDir, 'openclaw.json5');
      writeFileSync(
        config,
        JSON.stringify(
          {
            gateway: { mode: 'local', auth: { mode: 'token', token } },
            models: {
              mode: 'merge',
              providers: {
                mmb: {
                  baseUrl: this.options.model.baseUrl,
                  apiKey: this.options.model.apiKey,
                  api: 'openai-completions',
                  models: [
                    {
                      id: this.options.model.id,
                      name: this.options.model.id,
                      reasoning: false,
                      input: ['text'],
                      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
                      contextWindow: 128000,
                      maxTokens: 4096,
                    },
                  ],
                },
              },
            },
            agents: {
              defaults: {
                model: { primary: `mmb/${this.options.model.id}` },
                workspace: this.workspace,
                compaction: { notifyUser: false, ...this.options.compaction },
                heartbeat: { every: '0m' },
              },
            },
            plugins: { entries: { 'memory-core': { config: { dreaming: { enabled: false } } } } },
            logging: { file: join(this.dir, 'openclaw.log') },
          },
          null,
          2,
        ),
        { mode: 0o600 },
      );
      mkdirSync(join(this.dir, 'home'), { recursive: true });
      this.gateway = startGatewayProcess({
        bin: this.options.bin,
        port,
        logFile: join(this.dir, 'gateway.log'),
        ...(this.options.nodeBin ? { nodeBin: this.options.nodeBin } : {}),
        ...(this.options.personaKeyEnv ? { personaKeyEnv: this.options.personaKeyEnv } : {}),
        env: { HOME: join(this.dir, 'home'), OPENCLAW_STATE_DIR: join(this.dir, 'state'), OPENCLAW_CONFIG_PATH: config },
      });
      if (this.gateway.pid) this.saved.gatewayPid = this.gateway.pid;
      this.save();
      url = `ws://127.0.0.1:${port}`;
    }
    this.client = await GatewayClient.connect(url, token);
    this.client.onEvent((event, payload) => this.onEvent(event, payload));
    await this.collectMissed();
  }

  async sendMessage(text: string, o: SendOptions): Promise<void> {
    this.failure.throwIfAny();
    if (this.saved.answered.includes(o.idempotencyKey)) return;
    if (!this.saved.keys.includes(o.idempotencyKey)) this.saved.keys.push(o.idempotencyKey);
    this.inFlight.add(o.idempotencyKey);
    this.save();
    // Sent again after a crash, the same key is dropped by the gateway if the first one arrived.
    await this.rpc('chat.send', { sessionKey: this.options.sessionKey, message: text, idempotencyKey: o.idempotencyKey });
  }

  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    this.failure.throwIfAny();
    return this.saved.replies.filter((m) => m.seq > afterSeq);
  }

  async getStatus(): Promise<AgentStatus> {
    let contextTokens: number | null = null;
    try {
      const d = await this.rpc('sessions.describe', { key: this.options.sessionKey });
      const session = d.session as { contextBudgetStatus?: { estimatedPromptTokens?: number }; totalTokens?: number } | undefined;
      contextTokens = session?.contextBudgetStatus?.estimatedPromptTokens ?? session?.totalTokens ?? null;
    } catch {
      // A session not created yet has nothing to describe.
    }
    return { state: this.inFlight.size ? 'thinking' : 'idle', compactions: this.saved.compactions, contextTokens };
  }

  async startNewConversation(): Promise<void> {
    await this.rpc('sessions.reset', { key: this.options.sessionKey });
  }

  async destroySession(): Promise<void> {
    await this.close();
    for (const d of ['state', 'workspace', 'home']) rmSync(join(this.dir, d), { recursive: true, force: true });
    rmSync(this.file, { force: true });
    this.saved = { replies: [], keys: [], answered: [], compactions: [] };
  }

  memoryDir(): string {
    return this.workspace;
  }

  async close(): Promise<void> {
    this.client?.close();
    this.client = undefined;
    await stopGatewayProcess(this.gateway);
    this.gateway = undefined;
    if (this.configDir) rmSync(this.configDir, { recursive: true, force: true });
    this.configDir = undefined;
  }

  private async rpc(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (!this.client) throw new Error('openclaw: the gateway is not connected');
    return this.client.request(method, params);
  }

  private onEvent(event: string, payload: Record<string, unknown>): void {
    if (event !== 'chat') return;
    const key = String(payload.runId ?? '');
    if (!this.inFlight.has(key)) return;
    if (payload.state === 'final') void this.answerWithHistory(key, textOf(payload.message));
    else if (payload.state === 'error' || payload.state === 'aborted') {
      this.inFlight.delete(key);
      this.failure.set(new Error(`openclaw: the turn ended in ${String(payload.state)}: ${String(payload.errorMessage ?? '')}`));
    }
  }

  /**
   * The `chat` events carry the final text only: the turn's tool calls are read from the history
   * before the reply is kept, and a history that cannot be read leaves the reply without them.
   */
  private async answerWithHistory(key: string, text: string): Promise<void> {
    const history = await this.rpc('chat.history', { sessionKey: this.options.sessionKey }).catch(() => ({}) as Record<string, unknown>);
    this.answer(key, text, openclawToolCalls(historyRows(history), key));
  }

  private answer(key: string, text: string, toolCalls: AgentToolCall[] | undefined): void {
    this.inFlight.delete(key);
    if (this.saved.answered.includes(key)) return;
    this.saved.answered.push(key);
    const calls = toolCalls ? { toolCalls: maskSecretsDeep(toolCalls) } : {};
    this.saved.replies.push({ seq: this.saved.replies.length + 1, text: maskSecrets(text), at: this.now().toISOString(), ...calls });
    this.save();
  }

  /** After a restart: replies to keys sent before it, read from the history; compactions too. */
  private async collectMissed(): Promise<void> {
    const h = await this.rpc('chat.history', { sessionKey: this.options.sessionKey }).catch(() => ({}) as Record<string, unknown>);
    const rows = historyRows(h) as {
      role: string;
      content: unknown;
      idempotencyKey?: string;
      __openclaw?: { kind?: string; tokensBefore?: number; tokensAfter?: number; recordTimestampMs?: number };
    }[];
    rows.forEach((row) => {
      if (row.__openclaw?.kind === 'compaction') {
        const at = new Date(row.__openclaw.recordTimestampMs ?? Date.now()).toISOString();
        if (!this.saved.compactions.some((c) => c.at === at))
          this.saved.compactions.push({ at, tokensBefore: row.__openclaw.tokensBefore, tokensAfter: row.__openclaw.tokensAfter });
      }
      const key = row.role === 'user' ? row.idempotencyKey?.replace(/:user$/, '') : undefined;
      if (!key || this.saved.answered.includes(key) || !this.saved.keys.includes(key)) return;
      // A turn that called tools has assistant rows before its answer: the answer is the last one, once it stopped calling.
      const reply = rowsOfTurn(rows, key)
        .filter((r) => r.role === 'assistant')
        .at(-1);
      if (reply && reply.stopReason !== 'toolUse' && textOf(reply)) this.answer(key, textOf(reply), openclawToolCalls(rows, key));
      else this.inFlight.add(key);
    });
    this.save();
  }

  private save(): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(this.file, JSON.stringify(this.saved));
  }
}

/** The rows of a `chat.history` answer: anything else than an array is none. */
function historyRows(history: Record<string, unknown>): unknown[] {
  return Array.isArray(history.messages) ? history.messages : [];
}

function textOf(message: unknown): string {
  const content = (message as { content?: unknown })?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (c as { text?: string }).text ?? '').join('');
  return '';
}
