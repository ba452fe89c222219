/**
 * A dataset file read as a stream of the items of its top-level JSON array, or of its lines when it
 * is JSON Lines (what Hugging Face's `datasets` writes with `to_json`): the file is read in chunks
 * and each item's text is parsed on its own, so a 500 MB file never stands whole in memory (only
 * the largest item does, and that is bounded). A file that is neither, or whose JSON breaks, is one
 * `DatasetFormatError` naming where.
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** The largest item read: a LongMemEval_M question with its 500 sessions is about 6 MB. */
export const MAX_ITEM_CHARS = 64 * 1024 * 1024;
/** The chunk the file is read in: what the test's bigger-than-a-chunk file is measured against. */
export const READ_CHUNK_BYTES = 64 * 1024;

/** A file that is not what the dataset's schema says: the message is the whole one line. */
export class DatasetFormatError extends Error {}

export interface StreamedItem {
  index: number;
  value: unknown;
}

export interface ArrayStreamOptions {
  chunkBytes?: number;
  maxItemChars?: number;
  /** Given each chunk read: its bytes hash the file as it streams, and a test counts them. */
  onChunk?: (chunk: Buffer) => void;
  /** A file whose first character is `{` is read as JSON Lines, an item a line (blank lines skipped). */
  jsonLines?: boolean;
}

/** Where the scanner stands between chunks. */
interface ScanState {
  /** Before the array's `[`, inside it between items, or after its `]`; or reading JSON Lines. */
  where: 'before' | 'between' | 'item' | 'after' | 'lines';
  /** JSON Lines: the number of the line being read, from 1. */
  line: number;
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** The item read so far. */
  item: string[];
  itemChars: number;
  index: number;
}

/** The items of the file's top-level array (or, with `jsonLines`, of its lines), one by one, in order. */
export async function* streamJsonArray(path: string, shown: string, options: ArrayStreamOptions = {}): AsyncGenerator<StreamedItem> {
  const maxItemChars = options.maxItemChars ?? MAX_ITEM_CHARS;
  const state: ScanState = { where: 'before', line: 1, depth: 0, inString: false, escaped: false, item: [], itemChars: 0, index: 0 };
  const limits = { shown, maxItemChars, jsonLines: options.jsonLines === true };
  const scan = (text: string) => (state.where === 'lines' ? scanLines(text, state, limits) : scanChunk(text, state, limits));
  const decoder = new StringDecoder('utf8');
  const stream = createReadStream(path, { highWaterMark: options.chunkBytes ?? READ_CHUNK_BYTES });
  let first = true;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    options.onChunk?.(chunk);
    let text = decoder.write(chunk);
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    for (const item of scan(text)) yield item;
  }
  for (const item of scan(decoder.end())) yield item;
  if (state.where === 'lines') {
    for (const item of scanLines('\n', state, limits)) yield item;
    return;
  }
  if (state.where === 'before')
    throw new DatasetFormatError(`${shown}: expected ${expectedFile(options)}, found ${options.jsonLines ? 'nothing' : 'no "["'}.`);
  if (state.where !== 'after')
    throw new DatasetFormatError(`${shown}: the file ends inside its array (item ${state.index}): it is cut short.`);
}

/** What a scan needs besides the text: the file's name as shown, the bound of an item, whether JSON Lines are read. */
interface ScanLimits {
  shown: string;
  maxItemChars: number;
  jsonLines: boolean;
}

/** What the file must be, as a refusal says it. */
function expectedFile(options: { jsonLines?: boolean }): string {
  return options.jsonLines ? 'a JSON array of items ([ … ]) or JSON Lines (an item a line)' : 'a JSON array of items ([ … ])';
}

/** The items a chunk completes; the state carries what it leaves open to the next chunk. */
function* scanChunk(text: string, state: ScanState, limits: ScanLimits): Generator<StreamedItem> {
  const { shown, maxItemChars } = limits;
  let start = state.where === 'item' ? 0 : -1;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (state.where === 'item') {
      if (state.inString) {
        if (state.escaped) state.escaped = false;
        else if (char === '\\') state.escaped = true;
        else if (char === '"') state.inString = false;
        continue;
      }
      if (char === '"') state.inString = true;
      else if (char === '[' || char === '{') state.depth++;
      else if ((char === ']' || char === '}') && state.depth > 0) state.depth--;
      else if ((char === ',' || char === ']') && state.depth === 0) {
        yield finishItem(state, text.slice(start, i), shown);
        state.where = char === ']' ? 'after' : 'between';
        start = -1;
      }
      continue;
    }
    if (/\s/.test(char)) continue;
    if (state.where === 'before') {
      if (char === '{' && limits.jsonLines) {
        state.where = 'lines';
        yield* scanLines(text.slice(i), state, limits);
        return;
      }
      if (char !== '[') throw new DatasetFormatError(`${shown}: expected ${expectedFile(limits)}, found ${JSON.stringify(char)} first.`);
      state.where = 'between';
    } else if (state.where === 'after') {
      throw new DatasetFormatError(`${shown}: text after the array's closing "]": the file holds more than one JSON value.`);
    } else if (char === ']' && state.index === 0 && state.item.length === 0) {
      state.where = 'after';
    } else {
      state.where = 'item';
      state.depth = 0;
      start = i;
      i--;
    }
  }
  if (state.where === 'item' && start >= 0) {
    const rest = text.slice(start);
    state.item.push(rest);
    state.itemChars += rest.length;
    if (state.itemChars > maxItemChars)
      throw new DatasetFormatError(`${shown}: item ${state.index} is larger than ${maxItemChars.toLocaleString('en-US')} characters.`);
  }
}

/**
 * JSON Lines: each line a whole item (a JSON string holds no raw line break, so every `\n` ends
 * one); blank lines are skipped, and an item is named by its index and its line.
 */
function* scanLines(text: string, state: ScanState, limits: ScanLimits): Generator<StreamedItem> {
  let start = 0;
  for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
    const line = state.item.join('') + text.slice(start, end);
    state.item = [];
    state.itemChars = 0;
    start = end + 1;
    if (line.trim() !== '') yield parseItem(state, line, `${limits.shown}: item ${state.index} (line ${state.line})`);
    state.line++;
  }
  const rest = text.slice(start);
  state.item.push(rest);
  state.itemChars += rest.length;
  if (state.itemChars > limits.maxItemChars)
    throw new DatasetFormatError(
      `${limits.shown}: item ${state.index} (line ${state.line}) is larger than ${limits.maxItemChars.toLocaleString('en-US')} characters.`,
    );
}

function finishItem(state: ScanState, tail: string, shown: string): StreamedItem {
  const text = state.item.join('') + tail;
  state.item = [];
  state.itemChars = 0;
  return parseItem(state, text, `${shown}: item ${state.index}`);
}

/** The item's value, numbered; `named` names it in the refusal when its text is no JSON. */
function parseItem(state: ScanState, text: string, named: string): StreamedItem {
  const index = state.index++;
  try {
    return { index, value: JSON.parse(text) as unknown };
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0]!.slice(0, 120) : 'not JSON';
    throw new DatasetFormatError(`${named} is not valid JSON (${why}).`);
  }
}
