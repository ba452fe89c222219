/**
 * `hermes`: the Hermes agent over the sessions REST API of its gateway (`/api/sessions`). A new
 * conversation is a new session over the same memory (MEMORY.md, USER.md); a session id that
 * Hermes returns (it may start a new one after compressing its context) is always adopted. The
 * full reset runs a configurable command (the seed uses a docker reset script). Compactions are
 * read from Hermes's log.
 *
 * Not run against a real Hermes here (it cannot be installed on this machine): it is tested
 * against a protocol server that follows the documented API
 * (website/docs/user-guide/features/api-server.md in the Hermes repository).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { maskSecrets, maskSecretsDeep, runSecrets } from '../secrets';
import { ConfigError } from '../errors';
import { PendingFailure } from './failure';
import type { AgentAdapter, AgentMessage, AgentStatus, SendOptions } from './types';

export interface HermesOptions {
  url: string;
  apiKey: string;
  /** `$HERMES_HOME`: where its config.yaml, memories/ and logs/ are, when it is on this machine. */
  home?: string;
  resetCommand?: string;
  /** `hermes_compression_threshold` and `hermes_compression_target_ratio`, written into config.yaml. */
  compression: { threshold?: number; target_ratio?: number };
}

interface Saved {
  sessionId?: string;
  replies: AgentMessage[];
  keys: string[];
}

/** Reads the run keys `hermes_*` into options, with the key from the environment. */
export function hermesOptions(options: Record<string, unknown>, env: NodeJS.ProcessEnv): HermesOptions {
  const str = (k: string) => (typeof options[k] === 'string' ? (options[k] as string) : undefined);
  const num = (k: string) => {
    const v = options[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'number') throw new ConfigError(`the run key \`${k}\` must be a number.`);
    return v;
  };
  const keyEnv = str('hermes_api_key_env') ?? 'HERMES_API_KEY';
  const apiKey = env[keyEnv];
  if (!apiKey) throw new ConfigError(`the hermes agent needs its API_SERVER_KEY: set the environment variable ${keyEnv} (or name another in \`hermes_api_key_env\`).`);
  runSecrets.add(apiKey);
  const out: HermesOptions = { url: (str('hermes_url') ?? 'http://127.0.0.1:8642').replace(/\/+$/, ''), apiKey, compression: {} };
  const home = str('hermes_home');
  if (home) out.home = home;
  const reset = str('hermes_reset_command');
  if (reset) out.resetCommand = reset;
  const threshold = num('hermes_compression_threshold');
  const ratio = num('hermes_compression_target_ratio');
  if (threshold !== undefined) out.compression.threshold = threshold;
  if (ratio !== undefined) out.compression.target_ratio = ratio;
  return out;
}

export class HermesAdapter implements AgentAdapter {
  readonly quietPeriodMs = 2000;
  readonly pollIntervalMs = 200;
  private saved: Saved = { replies: [], keys: [] };
  private busy: Promise<void> | undefined;
  private readonly failure = new PendingFailure();

  constructor(private readonly dir: string, private readonly o: HermesOptions, private readonly now: () => Date = () => new Date()) {}

  private get file(): string {
    return join(this.dir, 'hermes.json');
  }

  async createSession(name: string): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    if (existsSync(this.file)) this.saved = JSON.parse(readFileSync(this.file, 'utf8')) as Saved;
    this.writeCompressionConfig();
    if (!this.saved.sessionId) {
      this.saved.sessionId = await this.newSession(name);
      this.save();
    }
  }

  async sendMessage(text: string, o: SendOptions): Promise<void> {
    this.failure.throwIfAny();
    if (this.saved.keys.includes(o.idempotencyKey)) return;
    await this.busy;
    this.saved.keys.push(o.idempotencyKey);
    this.save();
    this.busy = this.chat(text, o.idempotencyKey).catch((e: unknown) => {
      this.failure.set(new Error(`hermes: ${e instanceof Error ? e.message : String(e)}`));
    }).finally(() => {
      this.busy = undefined;
    });
  }

  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    this.failure.throwIfAny();
    return this.saved.replies.filter((m) => m.seq > afterSeq);
  }

  async getStatus(): Promise<AgentStatus> {
    return { state: this.busy ? 'thinking' : 'idle', compactions: this.compactions(), contextTokens: null };
  }

  async startNewConversation(): Promise<void> {
    await this.busy;
    this.saved.sessionId = await this.newSession('new conversation');
    this.save();
  }

  async destroySession(): Promise<void> {
    await this.busy?.catch(() => undefined);
    if (this.saved.sessionId) await this.request('DELETE', `/api/sessions/${encodeURIComponent(this.saved.sessionId)}`).catch(() => undefined);
    if (this.o.resetCommand) await runCommand(this.o.resetCommand);
    rmSync(this.dir, { recursive: true, force: true });
    this.saved = { replies: [], keys: [] };
  }

  memoryDir(): string | undefined {
    return this.o.home ? join(this.o.home, 'memories') : undefined;
  }

  async close(): Promise<void> {
    await this.busy?.catch(() => undefined);
  }

  private async newSession(title: string): Promise<string> {
    const body = await this.request('POST', '/api/sessions', { title });
    const id = body.id ?? body.session_id;
    if (typeof id !== 'string') throw new Error(`POST /api/sessions answered without a session id: ${JSON.stringify(body).slice(0, 200)}`);
    return id;
  }

  private async chat(text: string, key: string): Promise<void> {
    const body = await this.request('POST', `/api/sessions/${encodeURIComponent(this.saved.sessionId ?? '')}/chat`, { input: text }, { 'Idempotency-Key': key });
    const returned = body.session_id ?? body.id;
    if (typeof returned === 'string' && returned !== this.saved.sessionId) this.saved.sessionId = returned;
    const reply = [body.output, body.response, body.content, body.message].find((x): x is string => typeof x === 'string') ?? '';
    this.saved.replies.push({ seq: this.saved.replies.length + 1, text: reply, at: this.now().toISOString() });
    this.save();
  }

  private async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const r = await fetch(`${this.o.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.o.apiKey}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${maskSecrets(text).slice(0, 300)}`);
    return text ? maskSecretsDeep(JSON.parse(text) as Record<string, unknown>) : {};
  }

  /** Writes the compression keys into config.yaml, in a block of its own. */
  private writeCompressionConfig(): void {
    const { threshold, target_ratio } = this.o.compression;
    if (!this.o.home || (threshold === undefined && target_ratio === undefined)) return;
    const path = join(this.o.home, 'config.yaml');
    const old = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const kept = old.replace(/\n?# mmb: compression\n[\s\S]*?# mmb: end\n/, '\n').replace(/^compression:\n(?: {2}.*\n)*/m, '');
    const block = ['# mmb: compression', 'compression:', ...(threshold !== undefined ? [`  threshold: ${threshold}`] : []), ...(target_ratio !== undefined ? [`  target_ratio: ${target_ratio}`] : []), '# mmb: end', ''];
    mkdirSync(this.o.home, { recursive: true });
    writeFileSync(path, `${kept.trimEnd()}${kept.trim() ? '\n' : ''}${block.join('\n')}`);
  }

  /** Context compressions Hermes logged, oldest first; null without a log to read. */
  private compactions(): AgentStatus['compactions'] {
    const log = this.o.home ? join(this.o.home, 'logs', 'agent.log') : undefined;
    if (!log || !existsSync(log)) return null;
    return readFileSync(log, 'utf8').split('\n').flatMap((line) => {
      const m = /^(\S+).*compress\w*\D+(\d+)\D+(\d+)/i.exec(line);
      return m ? [{ at: m[1] ?? '', tokensBefore: Number(m[2]), tokensAfter: Number(m[3]) }] : [];
    });
  }

  private save(): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(this.file, JSON.stringify(this.saved));
  }
}

function runCommand(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], { timeout: 300_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`the reset command \`${command}\` failed: ${stderr.trim() || error.message}`));
      else resolve();
    });
  });
}
