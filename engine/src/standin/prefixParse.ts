/**
 * The stand-in's parse of chat bodies, with a prefix cache as a provider keeps one: each request of
 * a conversation repeats the one before it and adds a message or two, so the messages of the longest
 * prefix a recent body shares (compared byte for byte) are taken from that body's parse, and only the
 * rest is decoded and parsed. A stand-in run of Max sends some 25 MB of bodies (44 MB with the
 * notebook), and decoding and `JSON.parse` of all of them was the largest single cost of the run
 * (issue #17). The result is always what `JSON.parse` gives of the body's text:
 * a body not laid out as the OpenAI client writes it (`{"model":"…","messages":[…` first) is parsed
 * whole, and a prefix is reused only up to the end of a message the earlier body had.
 */

/** One recent body: its bytes, the keys before its messages (the model), its messages, and where each message ends. */
interface Parsed {
  bytes: Buffer;
  head: Record<string, unknown>;
  messages: unknown[];
  /** Each message's end, in bytes of the body and in characters of its text. */
  byteEnds: number[];
  charEnds: number[];
}

/** The layout of the OpenAI client's bodies (read as latin1: one character a byte); the model's name is a JSON string, bounded. */
const HEAD = /^\{"model":"(?:[^"\\]|\\.){0,400}","messages":\[/;
/** Conversations told apart at once (the persona's, the agent's, its compaction's…). */
const RECENT = 8;

export interface ParsedBody {
  /** What `JSON.parse` gives of the body's UTF-8 text. */
  body: unknown;
  /** The length of that text in UTF-16 characters, as `String.length` counts it. */
  chars: number;
  /** Characters at its start that a recent body had too (whole messages): the prefix a provider's cache would serve. */
  cachedChars: number;
}

export class PrefixParser {
  private recent: Parsed[] = [];
  /** Messages taken from an earlier parse so far, for tests and the bench. */
  reused = 0;

  /** The body as `JSON.parse(raw.toString('utf8'))` reads it (or its `SyntaxError`), and its length in characters. */
  parse(raw: Buffer): ParsedBody {
    const head = HEAD.exec(raw.toString('latin1', 0, 512))?.[0];
    if (head === undefined) {
      const text = raw.toString('utf8');
      return { body: JSON.parse(text), chars: text.length, cachedChars: 0 };
    }
    const known = this.longestPrefix(raw, head.length);
    if (!known) return this.parseWhole(raw, head.length);
    const fromByte = known.parsed.byteEnds[known.count - 1]!;
    const fromChar = known.parsed.charEnds[known.count - 1]!;
    const rest = raw.toString('utf8', fromByte);
    // A second `messages` key would replace the array: only a whole parse gets that right.
    if (rest.includes('"messages":')) return this.parseWhole(raw, head.length);
    // After a message of the array, inside the object: the state this opening leaves the parser in.
    const tail = JSON.parse(`{"messages":[null${rest}`) as Record<string, unknown>;
    const messages = [...known.parsed.messages.slice(0, known.count), ...(tail.messages as unknown[]).slice(1)];
    this.reused += known.count;
    const ends = messageEnds(rest, 0);
    if (ends) {
      const byteEnds = known.parsed.byteEnds.slice(0, known.count);
      const charEnds = known.parsed.charEnds.slice(0, known.count);
      addEnds(rest, ends, { byteEnds, charEnds }, fromByte, fromChar);
      this.keep({ bytes: raw, head: known.parsed.head, messages, byteEnds, charEnds });
    }
    return { body: { ...known.parsed.head, ...tail, messages }, chars: fromChar + rest.length, cachedChars: fromChar };
  }

  private parseWhole(raw: Buffer, headBytes: number): ParsedBody {
    const text = raw.toString('utf8');
    const body = JSON.parse(text) as Record<string, unknown>;
    const headText = raw.toString('utf8', 0, headBytes);
    const ends = Array.isArray(body.messages) ? messageEnds(text, headText.length) : undefined;
    // Kept only when that array is the body's messages: a later `messages` key would have replaced it.
    if (ends && ends.length === (body.messages as unknown[]).length && !text.includes('"messages":', ends.at(-1) ?? headText.length)) {
      const parsed: Parsed = {
        bytes: raw,
        head: JSON.parse(`${headText}]}`) as Record<string, unknown>,
        messages: body.messages as unknown[],
        byteEnds: [],
        charEnds: [],
      };
      addEnds(
        text.slice(headText.length),
        ends.map((end) => end - headText.length),
        parsed,
        headBytes,
        headText.length,
      );
      this.keep(parsed);
    }
    return { body, chars: text.length, cachedChars: 0 };
  }

  /** The recent body sharing the most whole messages with `raw` (byte for byte), and how many. */
  private longestPrefix(raw: Buffer, headBytes: number): { parsed: Parsed; count: number } | undefined {
    let best: { parsed: Parsed; count: number } | undefined;
    for (const parsed of this.recent) {
      if (parsed.byteEnds.length === 0 || raw.compare(parsed.bytes, 0, headBytes, 0, headBytes) !== 0) continue;
      const all = parsed.byteEnds.length;
      // Most often the body is the earlier one and a message or two more: one comparison says so.
      if (sharesBytes(raw, parsed.bytes, parsed.byteEnds[all - 1]!)) return { parsed, count: all };
      let low = 0;
      let high = all - 1;
      // The largest count whose bytes begin `raw`: shared prefixes are nested, so it is a binary search.
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (sharesBytes(raw, parsed.bytes, parsed.byteEnds[mid - 1]!)) low = mid;
        else high = mid - 1;
      }
      if (low > 0 && low > (best?.count ?? 0)) best = { parsed, count: low };
    }
    return best;
  }

  private keep(parsed: Parsed): void {
    this.recent = [parsed, ...this.recent.filter((p) => p.bytes !== parsed.bytes)].slice(0, RECENT);
  }
}

/** Whether the first `length` bytes of the two are the same. */
function sharesBytes(raw: Buffer, earlier: Buffer, length: number): boolean {
  return length <= raw.length && raw.compare(earlier, 0, length, 0, length) === 0;
}

/**
 * Appends the ends found in `text` (character offsets into it, which begins at byte `fromByte`,
 * character `fromChar` of the body) in bytes and characters of the body. Each end follows an
 * ASCII `}`, `]` or `"`, so no slice splits a character.
 */
function addEnds(text: string, ends: number[], into: { byteEnds: number[]; charEnds: number[] }, fromByte: number, fromChar: number): void {
  let bytes = fromByte;
  let last = 0;
  for (const end of ends) {
    bytes += Buffer.byteLength(text.slice(last, end));
    last = end;
    into.byteEnds.push(bytes);
    into.charEnds.push(fromChar + end);
  }
}

/**
 * Where each message of the array ends in `text`, from `from` (the end of a message, or just past
 * the `[`). Undefined when the scan does not find the array's end, which a body `JSON.parse`
 * accepted never causes.
 */
function messageEnds(text: string, from: number): number[] | undefined {
  const ends: number[] = [];
  let at = from;
  for (;;) {
    while (at < text.length && isJsonSpace(text.charCodeAt(at))) at++;
    const code = text.charCodeAt(at);
    if (code === 0x5d) return ends;
    if (code === 0x2c) {
      at++;
      continue;
    }
    const end = valueEnd(text, at);
    if (end < 0) return undefined;
    ends.push(end);
    at = end;
  }
}

/** The end of the JSON value that starts at `at` (an object, an array, a string or a bare word); -1 if none. */
function valueEnd(text: string, at: number): number {
  let depth = 0;
  let inString = false;
  for (let i = at; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) {
        inString = false;
        if (depth === 0) return i + 1;
      }
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth++;
    } else if (code === 0x7d || code === 0x5d) {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (code === 0x2c || isJsonSpace(code))) {
      return i;
    }
  }
  return -1;
}

function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
