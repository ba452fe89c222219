/**
 * A model server that misbehaves the way real providers do: an HTTP proxy on 127.0.0.1:0 in front
 * of the stand-in that may answer a request with an error of its own making, rewrite the agent's
 * reply, or hold a request before answering it (a slow server). For the secrets, hostile-input and
 * stop tests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStandIn, type StandIn } from '../src/standin/server';

export interface ProxiedRequest {
  /** The path after the proxy's address, e.g. `/crash/v1/chat/completions`. */
  path: string;
  authorization: string;
  /** A request of the persona (it offers `send_message`), not of the agent. */
  persona: boolean;
  /** Requests seen so far on this path, this one included. */
  count: number;
}

/** `holdMs`: the request is answered only after this long, unless its client goes away first (counted in `cut`). */
export type Meddling = { status: number; message: string } | { rewrite: (content: string) => string } | { holdMs: number } | undefined;

export interface MeddlingProxy {
  /** The base URL for a model config: `http://127.0.0.1:PORT<prefix>/v1`. */
  url(prefix?: string): string;
  readonly meddled: number;
  /** The paths of the held requests whose client closed the connection before they were answered. */
  readonly cut: readonly string[];
  close(): Promise<void>;
}

export async function startMeddlingProxy(meddle: (request: ProxiedRequest) => Meddling): Promise<MeddlingProxy> {
  const standIn: StandIn = await startStandIn();
  const counts = new Map<string, number>();
  let meddled = 0;
  const cut: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = req.url ?? '';
      const count = (counts.get(path) ?? 0) + 1;
      counts.set(path, count);
      const persona = raw.includes('"send_message"');
      const action = meddle({ path, authorization: String(req.headers.authorization ?? ''), persona, count });
      if (action && 'status' in action) {
        meddled++;
        res.writeHead(action.status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: action.message, type: action.status >= 500 ? 'server_error' : 'invalid_request_error' } }),
        );
        return;
      }
      if (action && 'holdMs' in action) {
        meddled++;
        if (!(await held(res, action.holdMs))) return void cut.push(path);
      }
      const target = `${standIn.url.replace(/\/v1$/, '')}${path.replace(/^.*?\/v1\//, '/v1/')}`;
      const upstream = await fetch(target, {
        method: req.method ?? 'GET',
        headers: { 'content-type': 'application/json', authorization: 'Bearer stand-in' },
        ...(req.method === 'POST' ? { body: raw } : {}),
      });
      let text = await upstream.text();
      if (action && 'rewrite' in action && upstream.ok) {
        meddled++;
        const body = JSON.parse(text) as { choices: { message: { content: string | null } }[] };
        for (const choice of body.choices) choice.message.content = action.rewrite(choice.message.content ?? '');
        text = JSON.stringify(body);
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(text);
    })().catch((e: unknown) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `proxy: ${String(e)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: (prefix = '') => `http://127.0.0.1:${port}${prefix}/v1`,
    get meddled() {
      return meddled;
    },
    cut,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await standIn.close();
    },
  };
}

/** Waits `ms`: true, or false as soon as the client closes the connection (a request cut by its caller). */
function held(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(true), ms);
    res.on('close', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
