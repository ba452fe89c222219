/**
 * The OpenClaw gateway: the process (started on loopback with its own state folder, stopped by
 * its process group) and its WebSocket protocol (docs/openclaw-protocol.md): a challenge, a
 * `connect` request with operator scopes, then `req`/`res` frames and `event` frames.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { openSync } from 'node:fs';
import type WebSocket from 'ws';
import { wsChunk } from '../models/chunks/load';
import { GatewayError } from '../errors';
import { environmentWithoutPersonaKey } from './processEnv';

export interface GatewayProcessOptions {
  bin: string;
  /** A folder with Node 24's `node`, put first on PATH for the gateway only. */
  nodeBin?: string;
  port: number;
  env: Record<string, string>;
  logFile: string;
  /** The variable of the persona's key: the gateway gets the engine's environment less that. */
  personaKeyEnv?: string;
}

export function startGatewayProcess(options: GatewayProcessOptions): ChildProcess {
  const log = openSync(options.logFile, 'a');
  return spawn(options.bin, ['gateway', 'run', '--port', String(options.port), '--bind', 'loopback'], {
    env: {
      ...environmentWithoutPersonaKey(process.env, options.personaKeyEnv),
      ...(options.nodeBin ? { PATH: `${options.nodeBin}:${process.env.PATH ?? ''}` } : {}),
      OPENCLAW_DISABLE_BONJOUR: '1',
      OPENCLAW_SKIP_CHANNELS: '1',
      OPENCLAW_NO_RESPAWN: '1',
      OPENCLAW_EXEC_SHELL_SNAPSHOT: '0',
      ...options.env,
    },
    detached: true,
    stdio: ['ignore', log, log],
  });
}

export function stopGatewayProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Gone already.
      }
      resolve();
    }, 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

type Frame =
  | {
      type: 'res';
      id: string;
      ok: boolean;
      payload?: Record<string, unknown>;
      error?: { code: string; message: string; retryAfterMs?: number };
    }
  | { type: 'event'; event: string; payload: Record<string, unknown> };

/** One authenticated WebSocket connection to the gateway. */
export class GatewayClient {
  private pending = new Map<string, { resolve: (p: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  private listeners = new Set<(event: string, payload: Record<string, unknown>) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => this.onFrame(String(data)));
    ws.on('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('the gateway closed the connection'));
      this.pending.clear();
    });
  }

  /** Connects and authenticates, retrying while the gateway starts (it takes some 20 s). */
  static async connect(url: string, token: string, timeoutMs = 120_000): Promise<GatewayClient> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    while (Date.now() < deadline) {
      try {
        return await GatewayClient.tryConnect(url, token);
      } catch (e) {
        last = e;
        await new Promise((r) => setTimeout(r, e instanceof GatewayError && e.retryAfterMs ? e.retryAfterMs : 500));
      }
    }
    const reason = last instanceof Error ? last.message : String(last);
    throw new Error(`could not connect to the OpenClaw gateway at ${url} within ${timeoutMs / 1000} s: ${reason}`);
  }

  private static tryConnect(url: string, token: string): Promise<GatewayClient> {
    return new Promise((resolve, reject) => {
      const ws = new (wsChunk().WebSocket)(url);
      const fail = (e: Error) => {
        ws.removeAllListeners();
        ws.terminate();
        reject(e);
      };
      ws.once('error', (e) => fail(e));
      ws.once('close', () => fail(new Error('closed during the handshake')));
      ws.once('message', (data) => {
        const challenge = JSON.parse(String(data)) as Frame;
        if (challenge.type !== 'event' || challenge.event !== 'connect.challenge')
          return fail(new Error(`expected connect.challenge, got ${String(data).slice(0, 200)}`));
        const id = randomUUID();
        ws.once('message', (reply) => {
          const res = JSON.parse(String(reply)) as Frame;
          if (res.type !== 'res' || res.id !== id)
            return fail(new Error(`unexpected frame during the handshake: ${String(reply).slice(0, 200)}`));
          if (!res.ok)
            return fail(new GatewayError(res.error?.message ?? 'connect refused', res.error?.code ?? 'ERROR', res.error?.retryAfterMs));
          ws.removeAllListeners('error');
          ws.removeAllListeners('close');
          resolve(new GatewayClient(ws));
        });
        ws.send(
          JSON.stringify({
            type: 'req',
            id,
            method: 'connect',
            params: {
              minProtocol: 4,
              maxProtocol: 4,
              client: { id: 'gateway-client', version: '0.1.0', platform: process.platform, mode: 'backend' },
              role: 'operator',
              scopes: ['operator.read', 'operator.write', 'operator.admin'],
              caps: [],
              auth: { token },
              locale: 'en-US',
              userAgent: 'marathon-mem-bench',
            },
          }),
        );
      });
    });
  }

  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ type: 'req', id, method, params }));
    });
  }

  onEvent(listener: (event: string, payload: Record<string, unknown>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.ws.close();
  }

  private onFrame(text: string): void {
    let frame: Frame;
    try {
      frame = JSON.parse(text) as Frame;
    } catch {
      return;
    }
    if (frame.type === 'res') {
      const p = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      if (!p) return;
      if (frame.ok) p.resolve(frame.payload ?? {});
      else p.reject(new GatewayError(`${frame.error?.code}: ${frame.error?.message}`, frame.error?.code ?? 'ERROR'));
    } else if (frame.type === 'event') {
      for (const l of this.listeners) l(frame.event, frame.payload ?? {});
    }
  }
}
