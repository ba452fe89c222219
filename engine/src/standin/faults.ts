/**
 * The stand-in's faults on purpose, so that the engine's handling of a misbehaving provider is
 * tested for real: rate limits, server errors and hangs on the wire; plain text, echoed replies and
 * malformed tool calls in what the persona says. Which request fails is drawn from a seeded
 * sequence, so a faulty run is as reproducible as a clean one.
 */
import { seededRandom } from '../random';
import type { ChatMessage } from '../protocol/chat';
import { FAULT_CALLS, FAULT_ID } from './persona';
import type { StandInResponse } from './reply';

export type FaultKind = '429' | '500' | 'hang' | 'malformed' | 'plain-text' | 'echo';

export interface FaultSettings {
  /** The share of requests that fail, from 0 to 1. */
  rate: number;
  kinds: FaultKind[];
  seed?: number;
}

/** A fault answered on the wire instead of a completion. */
export interface ErrorReply {
  status: number;
  body: { error: { message: string; type: string } };
  headers: Record<string, string>;
}

const DEFAULT_SEED = 1107;
const DEFAULT_HANG_MS = 60_000;

/** Draws the faults of one stand-in and keeps the hangs it started, to end them on close. */
export class FaultInjector {
  private random: () => number;
  private readonly hangs = new Set<NodeJS.Timeout>();
  /** Faults drawn so far. */
  count = 0;

  constructor(
    private readonly settings: FaultSettings | undefined,
    private readonly hangMs = DEFAULT_HANG_MS,
  ) {
    this.random = seededRandom(settings?.seed ?? DEFAULT_SEED);
  }

  /** The fault of the next request, if it gets one. Draws once per request, and once more for the kind. */
  draw(): FaultKind | undefined {
    const settings = this.settings;
    if (!settings || !(this.random() < settings.rate)) return undefined;
    const kind = settings.kinds[Math.floor(this.random() * settings.kinds.length)];
    if (kind) this.count++;
    return kind;
  }

  /** Holds a request unanswered, then drops its connection: the client should time out well before. */
  hang(drop: () => void): void {
    const timer = setTimeout(() => {
      this.hangs.delete(timer);
      drop();
    }, this.hangMs);
    this.hangs.add(timer);
  }

  /** Ends every hang and draws no fault any more. */
  stop(): void {
    for (const timer of this.hangs) clearTimeout(timer);
    this.hangs.clear();
    this.random = () => 1;
  }
}

/**
 * The error a wire fault answers with. `authorization` is quoted in server errors when given, as
 * careless providers do, so that the secrets test sees a key come back.
 */
export function errorReplyOf(kind: FaultKind, authorization: string | undefined): ErrorReply | undefined {
  if (kind === '429')
    return {
      status: 429,
      body: { error: { message: 'Rate limit reached (stand-in fault)', type: 'rate_limit_error' } },
      headers: { 'retry-after-ms': '10' },
    };
  if (kind !== '500') return undefined;
  const echo = authorization === undefined ? '' : ` for ${authorization}`;
  return { status: 500, body: { error: { message: `Internal error${echo} (stand-in fault)`, type: 'server_error' } }, headers: {} };
}

/** What the persona says instead of her script under a fault of her words; undefined for other kinds. */
export function faultyPersonaReply(kind: FaultKind, messages: readonly ChatMessage[]): StandInResponse | undefined {
  const id = `${FAULT_ID}${messages.length}`;
  if (kind === 'plain-text') return { content: 'Let me think about what to tell the assistant next.', calls: [] };
  if (kind === 'echo') return { content: null, calls: [{ id, type: 'function', function: { ...FAULT_CALLS.echo } }] };
  if (kind !== 'malformed') return undefined;
  const bad = messages.length % 2 === 0 ? FAULT_CALLS.notJson : FAULT_CALLS.noSuchTool;
  return { content: null, calls: [{ id, type: 'function', function: { ...bad } }] };
}
