/**
 * `mmb view`'s HTTP server: the workspace's results/ on loopback only, read-only. Every request
 * must name the server by its loopback host and port (a page of another site that points a name
 * at 127.0.0.1, DNS rebinding, gets 403) and carry the token of the printed URL (the first visit
 * turns it into a cookie, HttpOnly and SameSite=Strict). GET and HEAD only; no CORS headers;
 * every page under the CSP of the report pages, its body bounded and masked (no key of this process or of config.jsonc).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pageCsp } from '../report/html/page';
import { renderProblem } from '../report/html/runsIndexPage';
import { MAX_EVENT_CLIENTS, RunEvents } from './events';
import { pageAt, type ViewContext } from './pages';
import { workspaceMasker } from '../workspaceSecrets';

/** The hosts `mmb view` listens on: loopback only, since the pages have no login but the token. */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'] as const;
/** The largest page served: a run's report is a few MiB even for hours of conversation. */
export const MAX_PAGE_BYTES = 32 * 1024 * 1024;
const MAX_URL_LENGTH = 8192;

export interface ViewServer {
  /** The address to open, with the token: `http://127.0.0.1:<port>/?token=…`. */
  url: string;
  port: number;
  token: string;
  /** How many pages follow runs now (`/events`). */
  eventClients(): number;
  close(): Promise<void>;
}

export interface ViewServerOptions extends ViewContext {
  port: number;
  host: (typeof LOOPBACK_HOSTS)[number];
}

function sameText(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The value of a cookie of the request's Cookie header. */
function cookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').slice(0, 8192).split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The headers of every answer: no sniffing, no referrer, nothing cached, never framed. */
function baseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
  };
}

function plain(response: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  response.writeHead(status, { ...baseHeaders('text/plain; charset=utf-8'), 'Content-Security-Policy': "default-src 'none'", ...extra });
  response.end(`${text}\n`);
}

/** A page, the agents' memory snapshots in it, masked with the keys of this process and of config.jsonc, read afresh for each page. */
function maskedPage(html: string, configPath: string): Buffer {
  return Buffer.from(workspaceMasker(configPath, process.env).mask(html));
}

/** A page rendered, masked and bounded: a page that throws or grows too large becomes a one-line problem page. */
function renderedPage(options: ViewServerOptions, url: URL, nonce: string): { status: number; body: Buffer; live: boolean } {
  let status: number;
  let html: string;
  let live = false;
  try {
    ({ status, html, live } = pageAt(options, url.pathname, url.searchParams, { nonce }));
  } catch (e) {
    // A run whose files hold what no renderer expects is one line, and the server goes on.
    status = 500;
    const message = String((e as Error).message ?? e)
      .split('\n')[0]!
      .slice(0, 300);
    html = renderProblem('This page cannot be shown', message, { nonce });
  }
  const body = maskedPage(html, options.ws.configPath);
  if (body.length <= MAX_PAGE_BYTES) return { status, body, live };
  const size = `it would be ${Math.round(body.length / 1048576)} MiB, more than the ${MAX_PAGE_BYTES / 1048576} MiB served`;
  const problem = renderProblem('This page is too large', `${size}: use mmb report --html.`, { nonce });
  return { status: 500, body: Buffer.from(problem), live: false };
}

/** Answers a page request under the CSP of the report pages, with a fresh nonce. */
function servePage(options: ViewServerOptions, request: IncomingMessage, response: ServerResponse, url: URL): void {
  const nonce = randomBytes(16).toString('base64');
  const { status, body, live } = renderedPage(options, url, nonce);
  response.writeHead(status, {
    ...baseHeaders('text/html; charset=utf-8'),
    'Content-Security-Policy': pageCsp(nonce, { connectSelf: live }),
    'Content-Length': String(body.length),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** Starts the server; it answers until `close()`. */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const token = randomBytes(24).toString('base64url');
  const events = new RunEvents(options.ws.root);
  const bind = options.host === 'localhost' ? '127.0.0.1' : options.host;
  let allowedHosts: string[] = [];
  const cookieName = () => `mmb_view_${port}`;
  let port = 0;

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    if (!allowedHosts.includes(String(request.headers.host ?? '').toLowerCase()))
      return plain(response, 403, 'Forbidden: this server answers only to its own loopback address (the one `mmb view` printed).');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return plain(response, 405, 'Method not allowed: mmb view only reads.', { Allow: 'GET, HEAD' });
    const raw = request.url ?? '/';
    if (raw.length > MAX_URL_LENGTH) return plain(response, 414, 'The address is too long.');
    let url: URL;
    try {
      url = new URL(raw, `http://${allowedHosts[0]}`);
    } catch {
      return plain(response, 400, 'Bad request.');
    }
    const given = url.searchParams.get('token');
    if (given !== null && sameText(given, token)) {
      // The token becomes a cookie, and the address loses it: it stays out of the history and of links.
      url.searchParams.delete('token');
      return plain(response, 303, 'See the runs.', {
        Location: `${url.pathname}${url.search}`,
        'Set-Cookie': `${cookieName()}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      });
    }
    const held = cookie(request, cookieName());
    if (held === undefined || !sameText(held, token))
      return plain(response, 403, 'Forbidden: open the address with the token that `mmb view` printed.');
    if (url.pathname === '/events' && request.method === 'HEAD')
      return plain(response, 200, '', { 'Content-Type': 'text/event-stream; charset=utf-8' });
    if (url.pathname === '/events') return eventStream(response);
    servePage(options, request, response, url);
  };

  const eventStream = (response: ServerResponse): void => {
    if (events.size >= MAX_EVENT_CLIENTS) return plain(response, 503, 'Too many pages follow the runs: close some.');
    response.writeHead(200, { ...baseHeaders('text/event-stream; charset=utf-8'), Connection: 'keep-alive' });
    events.add(response);
  };

  const server: Server = createServer(handle);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, bind, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = bind === '::1' ? '[::1]' : bind;
  allowedHosts = bind === '::1' ? [`[::1]:${port}`, `localhost:${port}`] : [`127.0.0.1:${port}`, `localhost:${port}`];
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    eventClients: () => events.size,
    close: () =>
      new Promise<void>((resolve) => {
        events.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
