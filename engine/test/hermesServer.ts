/**
 * A protocol server for the Hermes sessions API, as its documentation describes it: bearer auth,
 * `POST /api/sessions`, `POST /api/sessions/{id}/chat` ({input} → {session_id, output}),
 * `GET /api/sessions/{id}/messages`, `DELETE /api/sessions/{id}`. Its "agent" writes every user
 * message to `memories/MEMORY.md` under its home and answers with the stand-in's recall over its
 * memory and the session; every `compressEvery` turns it compresses, logs it, and moves the
 * conversation to a new session id, as Hermes may.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { agentAnswer } from '../src/standin/agent';

export interface FakeHermes {
  url: string;
  home: string;
  sessions: Map<string, { role: 'user' | 'assistant'; content: string }[]>;
  close(): Promise<void>;
}

export async function startFakeHermes(key: string, home: string, compressEvery = 0): Promise<FakeHermes> {
  const sessions = new Map<string, { role: 'user' | 'assistant'; content: string }[]>();
  let next = 1;
  const memoryFile = () => join(home, 'memories', 'MEMORY.md');
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const read = (req: IncomingMessage) => new Promise<Record<string, unknown>>((resolve) => {
    let t = '';
    req.on('data', (c: Buffer) => { t += c.toString(); });
    req.on('end', () => resolve(t ? JSON.parse(t) as Record<string, unknown> : {}));
  });
  const server = createServer((req, res) => {
    void (async () => {
      if (req.headers.authorization !== `Bearer ${key}`) return send(res, 401, { error: 'unauthorized' });
      const path = req.url ?? '';
      const body = await read(req);
      if (req.method === 'POST' && path === '/api/sessions') {
        const id = `sess-${next++}`;
        sessions.set(id, []);
        return send(res, 201, { id, title: body.title });
      }
      const m = /^\/api\/sessions\/([^/]+)(\/chat|\/messages)?$/.exec(path);
      const id = decodeURIComponent(m?.[1] ?? '');
      const session = sessions.get(id);
      if (!m || !session) return send(res, 404, { error: `no session ${id}` });
      if (req.method === 'DELETE' && !m[2]) {
        sessions.delete(id);
        return send(res, 200, { deleted: true });
      }
      if (req.method === 'GET' && m[2] === '/messages') return send(res, 200, { messages: session });
      if (req.method === 'POST' && m[2] === '/chat') {
        const input = String(body.input ?? '');
        const memory = existsSync(memoryFile()) ? readFileSync(memoryFile(), 'utf8').split('\n').filter(Boolean) : [];
        const output = agentAnswer([...memory.map((content) => ({ role: 'user' as const, content })), ...session, { role: 'user', content: input }]);
        session.push({ role: 'user', content: input }, { role: 'assistant', content: output });
        if (!input.includes('?')) {
          mkdirSync(join(home, 'memories'), { recursive: true });
          appendFileSync(memoryFile(), `${input.replace(/\n/g, ' ')}\n`);
        }
        let sessionId = id;
        if (compressEvery && session.length / 2 >= compressEvery) {
          sessionId = `sess-${next++}`;
          sessions.set(sessionId, session.slice(-2));
          mkdirSync(join(home, 'logs'), { recursive: true });
          appendFileSync(join(home, 'logs', 'agent.log'), `${new Date().toISOString()} INFO Context compressed: 12000 -> 4000 tokens\n`);
        }
        return send(res, 200, { session_id: sessionId, output });
      }
      return send(res, 405, { error: 'method not allowed' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    home,
    sessions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
