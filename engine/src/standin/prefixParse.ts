/**
 * The stand-in's parse of chat bodies, with a prefix cache as a provider keeps one: each request of
 * a conversation repeats the one before it and adds a message or two, so the messages of the longest
 * prefix a recent body shares are taken from that body's parse, and only the rest is parsed. A stand-in
 * run of Max sends some 25 MB of bodies (44 MB with the notebook), and `JSON.parse` of all of them was
 * the largest single cost of the run (issue #17). The result is always what `JSON.parse` gives:
 * a body not laid out as the OpenAI client writes it (`{"model":"…","messages":[…` first) is parsed
 * whole, and a prefix is reused only up to the end of a message the earlier body had.
 */

/** One recent body: its text, the keys before its messages (the model), its messages, and where each message ends in the text. */
interface Parsed {
  text: string;
  head: Record<string, unknown>;
  messages: unknown[];
  ends: number[];
}

/** The layout of the OpenAI client's bodies; the model's name is a JSON string, bounded. */
const HEAD = /^\{"model":"(?:[^"\\]|\\.){0,400}","messages":\[/;
/** Conversations told apart at once (the persona's, the agent's, its compaction's…). */
const RECENT = 8;

export class PrefixParser {
  private recent: Parsed[] = [];
  /** Messages taken from an earlier parse so far, for tests and the bench. */
  reused = 0;

  /** `JSON.parse(raw)`: the same value, or the same `SyntaxError`. */
  parse(raw: string): unknown {
    const head = HEAD.exec(raw)?.[0];
    if (head === undefined) return JSON.parse(raw);
    const known = this.longestPrefix(raw, head);
    if (!known) {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const ends = Array.isArray(body.messages) ? messageEnds(raw, head.length, []) : undefined;
      if (ends) this.keep({ text: raw, head: JSON.parse(`${head}]}`) as Record<string, unknown>, messages: body.messages as unknown[], ends });
      return body;
    }
    const from = known.parsed.ends[known.count - 1]!;
    const rest = raw.slice(from);
    // A second `messages` key would replace the array: only a whole parse gets that right.
    if (rest.includes('"messages":')) return JSON.parse(raw);
    // After a message of the array, inside the object: the state this opening leaves the parser in.
    const tail = JSON.parse(`{"messages":[null${rest}`) as Record<string, unknown>;
    const messages = [...known.parsed.messages.slice(0, known.count), ...(tail.messages as unknown[]).slice(1)];
    this.reused += known.count;
    const ends = messageEnds(raw, from, known.parsed.ends.slice(0, known.count));
    if (ends) this.keep({ text: raw, head: known.parsed.head, messages, ends });
    return { ...known.parsed.head, ...tail, messages };
  }

  /** The recent body sharing the most whole messages with `raw`, and how many. */
  private longestPrefix(raw: string, head: string): { parsed: Parsed; count: number } | undefined {
    let best: { parsed: Parsed; count: number } | undefined;
    for (const parsed of this.recent) {
      if (!parsed.text.startsWith(head) || parsed.ends.length === 0) continue;
      let low = 0;
      let high = parsed.ends.length;
      // The largest count whose text is a prefix of `raw`: shared prefixes are nested, so it is a binary search.
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (raw.startsWith(parsed.text.slice(0, parsed.ends[mid - 1]))) low = mid;
        else high = mid - 1;
      }
      if (low > 0 && low > (best?.count ?? 0)) best = { parsed, count: low };
    }
    return best;
  }

  private keep(parsed: Parsed): void {
    this.recent = [parsed, ...this.recent.filter((p) => p.text !== parsed.text)].slice(0, RECENT);
  }
}

/**
 * Where each message of the array ends in `text`, from `from` (the end of the last message already
 * known, or just past the `[`): the known ends, then the new ones. Undefined when the scan does not
 * find the array's end, which a body `JSON.parse` accepted never causes.
 */
function messageEnds(text: string, from: number, known: number[]): number[] | undefined {
  const ends = [...known];
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
