/**
 * The fetch the OpenAI client is given: plain HTTP/1.1 over `node:http` and `node:https` with
 * keep-alive agents. Node's built-in fetch (undici) spends about 2 ms of CPU on every request in
 * its WHATWG streams and checks, whatever the body's size; a stand-in run of Max makes some 350
 * requests, so that was most of the run (issue #17). Whatever this path does not cover goes to the
 * built-in fetch unchanged: other protocols, bodies that are neither text nor bytes, and redirects
 * (re-sent whole through it, which follows them). Errors keep Node's codes (`ECONNREFUSED`,
 * `ENOTFOUND`…), which `endpointErrors.ts` reads through the SDK's `cause`; an abort rejects with
 * an `AbortError`, which the SDK turns into its timeout error.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

const HTTP_AGENT = new HttpAgent({ keepAlive: true });
const HTTPS_AGENT = new HttpsAgent({ keepAlive: true });
/** Statuses whose response has no body (a `Response` refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

type FetchInput = string | URL | Request;

export async function httpFetch(input: FetchInput, init: RequestInit = {}): Promise<Response> {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
  const body = bodyBytes(init.body);
  if (!url || body === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fetch(input, init);
  const response = await send(url, init, body);
  if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && response.headers.location) {
    response.resume();
    return fetch(input, init);
  }
  return toResponse(response, init.signal ?? undefined);
}

/** The body as bytes; undefined for none, null for a kind this path leaves to the built-in fetch (forms, streams). */
function bodyBytes(body: RequestInit['body']): Uint8Array | undefined | null {
  if (body === undefined || body === null) return undefined;
  // Encoded once here: a string given to the socket is measured (Buffer.byteLength) and encoded again.
  if (typeof body === 'string') return Buffer.from(body);
  return body instanceof Uint8Array ? body : null;
}

function send(url: URL, init: RequestInit, body: Uint8Array | undefined): Promise<IncomingMessage> {
  const headers: OutgoingHttpHeaders = { 'accept-encoding': 'gzip, deflate, br' };
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== undefined) headers['content-length'] = body.byteLength;
  const https = url.protocol === 'https:';
  const options = {
    method: (init.method ?? 'GET').toUpperCase(),
    headers,
    agent: https ? HTTPS_AGENT : HTTP_AGENT,
    ...(init.signal ? { signal: init.signal } : {}),
  };
  return new Promise((resolve, reject) => {
    const request = (https ? httpsRequest : httpRequest)(url, options, resolve);
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * The response as the SDK reads it: an event stream as a stream, as it arrives; any other body
 * read whole first, which costs no WHATWG stream per chunk. A compressed body is decompressed.
 */
async function toResponse(message: IncomingMessage, signal: AbortSignal | undefined): Promise<Response> {
  const status = message.statusCode ?? 0;
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined || name === 'content-encoding' || name === 'content-length') continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const init = { status, statusText: message.statusMessage ?? '', headers };
  if (NULL_BODY_STATUSES.has(status)) {
    message.resume();
    return new Response(null, init);
  }
  const decoder = decoderFor(message.headers['content-encoding']);
  const decoded: Readable = decoder ? message.pipe(decoder) : message;
  if (decoder) message.on('error', (error) => decoder.destroy(error));
  if (/\btext\/event-stream\b/i.test(message.headers['content-type'] ?? '')) {
    return new Response(Readable.toWeb(decoded) as ReadableStream<Uint8Array>, init);
  }
  return new Response(await readWhole(message, decoded, signal), init);
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  const name = encoding?.trim().toLowerCase();
  if (name === 'gzip' || name === 'x-gzip') return createGunzip();
  if (name === 'deflate') return createInflate();
  if (name === 'br') return createBrotliDecompress();
  return undefined;
}

/** The whole body; a connection cut before its end rejects (as an `AbortError` when the caller aborted). */
function readWhole(message: IncomingMessage, decoded: Readable, signal: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let ended = false;
    decoded.on('data', (part: Buffer) => parts.push(part));
    decoded.on('end', () => {
      ended = true;
      resolve(Buffer.concat(parts));
    });
    decoded.on('error', reject);
    message.on('close', () => {
      if (ended || message.complete) return;
      reject(
        signal?.aborted
          ? new DOMException('The operation was aborted.', 'AbortError')
          : Object.assign(new Error('the connection closed before the response ended'), { code: 'ECONNRESET' }),
      );
    });
  });
}
