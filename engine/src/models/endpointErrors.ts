/**
 * What a failed model request means and how it reads: whether another try can help, how long to
 * wait before it, and one short line that names the URL and the status. A server's error body is
 * untrusted text of any size (a proxy's whole HTML page): only a short excerpt of it, markup
 * stripped and keys masked, ever reaches the run state, the report or the screen.
 */
import { openAiChunk } from './chunks/load';
import { maskSecrets } from '../secrets';

/** The longest excerpt of a server's error body that an error message keeps. */
export const MAX_EXCERPT_CHARS = 200;
/** Of a body, only this much is looked at: enough for an excerpt after its markup is gone. */
const MAX_BODY_SCAN = 16 * 1024;
/** A `retry-after` longer than this is not waited for: the backoff decides instead. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Network errors that another try in a few seconds will not fix: nothing listens, or the name does not resolve. */
const PERMANENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'ERR_INVALID_URL']);
/** Node's fetch refuses the ports browsers block (9, 25, 6000…) with this message and no code. */
const BAD_PORT = 'bad port';
/** HTTP statuses that say "try again": timeout, conflict, rate limit. Every 5xx but 501 joins them. */
const TRANSIENT_STATUSES = new Set([408, 409, 429]);

/** A response that came back without a message: the server may do better on another try. */
export class EmptyResponseError extends Error {}

/** A transient failure worth another try: rate limits, server errors, timeouts, dropped connections. */
export function isRetryable(error: unknown): boolean {
  const { OpenAI } = openAiChunk();
  if (error instanceof OpenAI.APIConnectionTimeoutError) return true;
  if (error instanceof OpenAI.APIConnectionError) return !PERMANENT_CODES.has(networkCode(error) ?? '') && causeMessage(error) !== BAD_PORT;
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    return TRANSIENT_STATUSES.has(status) || (status >= 500 && status !== 501);
  }
  return error instanceof EmptyResponseError;
}

/**
 * The error as `<status or code> from <url>: <excerpt>`, with every key masked. `timeoutMs` is
 * the client's timeout, named when the server did not answer in time.
 */
export function describeModelError(error: unknown, url: string, timeoutMs: number): string {
  const where = maskSecrets(url);
  const { OpenAI } = openAiChunk();
  if (error instanceof OpenAI.APIConnectionTimeoutError) return `timeout from ${where}: no answer within ${timeoutMs / 1000} s`;
  if (error instanceof OpenAI.APIConnectionError) {
    const code = networkCode(error);
    if (!code && causeMessage(error) === BAD_PORT)
      return `bad port from ${where}: fetch refuses this port (one browsers block, such as 9 or 6000); use another`;
    return `${code ?? 'connection error'} from ${where}: ${excerpt(networkExplanation(code) ?? causeMessage(error))}`;
  }
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    // The SDK's message is "<status> <body's message or body>"; the status goes in front anyway.
    const body = error.message.startsWith(`${error.status} `) ? error.message.slice(String(error.status).length + 1) : error.message;
    return `${error.status} from ${where}: ${excerpt(body) || 'no body'}`;
  }
  return `error from ${where}: ${excerpt(error instanceof Error ? error.message : String(error))}`;
}

/**
 * A server's text cut to a short line: tags and entities gone, whitespace runs collapsed, keys
 * masked, at most `MAX_EXCERPT_CHARS` characters.
 */
export function excerpt(text: string): string {
  const flat = text
    .slice(0, MAX_BODY_SCAN)
    // Bounded repetitions: the body is a server's text, and no pattern may backtrack over all of it.
    .replace(/<(script|style)\b[^>]{0,2000}>[\s\S]{0,8000}?<\/\1\s*>/gi, ' ')
    .replace(/<\/?[A-Za-z!][^<>]{0,2000}>/g, ' ')
    .replace(/&(nbsp|amp|lt|gt|quot|#39);/g, (_entity, name: string) => ENTITIES[name] ?? ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const masked = maskSecrets(flat);
  return masked.length > MAX_EXCERPT_CHARS ? `${masked.slice(0, MAX_EXCERPT_CHARS - 1).trimEnd()}…` : masked;
}

const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** How long the server asked to wait (`retry-after-ms`, or `retry-after` in seconds or as a date), when it asked for a sane time. */
export function retryAfterMs(error: unknown, now: number = Date.now()): number | undefined {
  const { OpenAI } = openAiChunk();
  if (!(error instanceof OpenAI.APIError) || !error.headers) return undefined;
  const headers = error.headers;
  const millis = Number(headers.get('retry-after-ms') ?? Number.NaN);
  const seconds = headers.get('retry-after') ?? '';
  let wait = Number.isFinite(millis) ? millis : Number.NaN;
  if (Number.isNaN(wait) && seconds) wait = /^\d+(\.\d+)?$/.test(seconds.trim()) ? Number(seconds) * 1000 : Date.parse(seconds) - now;
  return Number.isFinite(wait) && wait >= 0 && wait <= MAX_RETRY_AFTER_MS ? wait : undefined;
}

/** The system error code under a connection error (`ECONNREFUSED`, `ENOTFOUND`…), found down its chain of causes. */
function networkCode(error: Error): string | undefined {
  let cause: unknown = error;
  for (let depth = 0; depth < 6 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    cause = cause.cause;
  }
  return undefined;
}

function networkExplanation(code: string | undefined): string | undefined {
  if (code === 'ECONNREFUSED') return 'the connection was refused: nothing listens there (is the server running, is the port right?)';
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME') return 'the host name does not resolve (check base_url)';
  if (code === 'EAI_AGAIN') return 'the host name could not be resolved (check base_url and the network)';
  if (code === 'ECONNRESET') return 'the server dropped the connection';
  return undefined;
}

/** The deepest message of a connection error: the SDK's own is only "Connection error.". */
function causeMessage(error: Error): string {
  let message = error.message;
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 6 && cause instanceof Error; depth++) {
    if (cause.message) message = cause.message;
    cause = cause.cause;
  }
  return message;
}
