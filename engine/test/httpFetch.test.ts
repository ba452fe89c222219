/** The OpenAI client's fetch over node:http: what the SDK and `endpointErrors.ts` read of a response or a failure. */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { httpFetch } from '../src/models/httpFetch';

async function serve(
  handler: (request: IncomingMessage, response: ServerResponse, body: string) => void,
): Promise<{ url: string; server: Server; connections: () => number }> {
  let connections = 0;
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => handler(request, response, Buffer.concat(parts).toString('utf8')));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, connections: () => connections };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

test('a JSON body goes out with its headers and length, and the connection is kept for the next request', async () => {
  const seen: string[] = [];
  const { url, server, connections } = await serve((request, response, body) => {
    const headers = request.headers;
    seen.push(`${request.method} ${request.url} ${headers['content-type']} ${headers['content-length']} ${headers.authorization} ${body}`);
    response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r1' });
    response.end('{"ok":"£1"}');
  });
  try {
    for (let i = 0; i < 5; i++) {
      const response = await httpFetch(`${url}/v1/chat`, {
        method: 'post',
        headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer k' }),
        body: '{"a":"£"}',
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-request-id'), 'r1');
      assert.deepEqual(await response.json(), { ok: '£1' });
    }
    assert.equal(seen[0], 'POST /v1/chat application/json 10 Bearer k {"a":"£"}', 'the method upper-cased, the length in bytes');
    assert.equal(connections(), 1, 'five requests over one kept-alive connection');
  } finally {
    await close(server);
  }
});

test('a gzip body is decompressed; an event stream is readable before the server ends it; a 204 has no body', async () => {
  let finish: (() => void) | undefined;
  const { url, server } = await serve((request, response) => {
    if (request.url === '/gzip') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync('{"zipped":true}'));
    } else if (request.url === '/sse') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
      finish = () => response.end('data: two\n\n');
    } else {
      response.writeHead(204);
      response.end();
    }
  });
  try {
    assert.deepEqual(await (await httpFetch(`${url}/gzip`)).json(), { zipped: true });
    const stream = await httpFetch(`${url}/sse`);
    const reader = stream.body!.getReader();
    assert.equal(
      Buffer.from((await reader.read()).value!).toString(),
      'data: one\n\n',
      'the first event arrives while the response is still open',
    );
    finish!();
    assert.equal(Buffer.from((await reader.read()).value!).toString(), 'data: two\n\n');
    const empty = await httpFetch(`${url}/none`);
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
  } finally {
    await close(server);
  }
});

test('a redirect is followed, an abort rejects as an AbortError, a refused connection keeps its code', async () => {
  const { url, server } = await serve((request, response) => {
    if (request.url === '/old') {
      response.writeHead(307, { location: '/new' });
      response.end();
    } else if (request.url === '/new') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('moved');
    }
    // Any other path never answers.
  });
  try {
    assert.equal(await (await httpFetch(`${url}/old`, { method: 'POST', body: 'x' })).text(), 'moved');
    const abort = new AbortController();
    const pending = httpFetch(`${url}/hang`, { signal: abort.signal });
    setTimeout(() => abort.abort(), 20);
    await assert.rejects(pending, (error: Error) => error.name === 'AbortError');
  } finally {
    await close(server);
  }
  await assert.rejects(httpFetch(url), (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED');
});
