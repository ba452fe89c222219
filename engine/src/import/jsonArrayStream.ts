/**
 * A dataset file read as a stream of the items of its top-level JSON array: the file is read in
 * chunks and each item's text is parsed on its own, so a 500 MB file never stands whole in memory
 * (only the largest item does, and that is bounded). A file that is no array, or whose JSON breaks,
 * is one `DatasetFormatError` naming where.
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
}

/** Where the scanner stands between chunks. */
interface ScanState {
  /** Before the array's `[`, inside it between items, or after its `]`. */
  where: 'before' | 'between' | 'item' | 'after';
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** The item read so far. */
  item: string[];
  itemChars: number;
  index: number;
}

/** The items of the file's top-level array, one by one, in order. */
export async function* streamJsonArray(path: string, shown: string, options: ArrayStreamOptions = {}): AsyncGenerator<StreamedItem> {
  const maxItemChars = options.maxItemChars ?? MAX_ITEM_CHARS;
  const state: ScanState = { where: 'before', depth: 0, inString: false, escaped: false, item: [], itemChars: 0, index: 0 };
  const decoder = new StringDecoder('utf8');
  const stream = createReadStream(path, { highWaterMark: options.chunkBytes ?? READ_CHUNK_BYTES });
  let first = true;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    options.onChunk?.(chunk);
    let text = decoder.write(chunk);
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    for (const item of scanChunk(text, state, shown, maxItemChars)) yield item;
  }
  for (const item of scanChunk(decoder.end(), state, shown, maxItemChars)) yield item;
  if (state.where === 'before') throw new DatasetFormatError(`${shown}: expected a JSON array of items ([ … ]), found no "[".`);
  if (state.where !== 'after')
    throw new DatasetFormatError(`${shown}: the file ends inside its array (item ${state.index}): it is cut short.`);
}

/** The items a chunk completes; the state carries what it leaves open to the next chunk. */
function* scanChunk(text: string, state: ScanState, shown: string, maxItemChars: number): Generator<StreamedItem> {
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
      if (char !== '[')
        throw new DatasetFormatError(`${shown}: expected a JSON array of items ([ … ]), found ${JSON.stringify(char)} first.`);
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

function finishItem(state: ScanState, tail: string, shown: string): StreamedItem {
  const text = state.item.join('') + tail;
  state.item = [];
  state.itemChars = 0;
  const index = state.index++;
  try {
    return { index, value: JSON.parse(text) as unknown };
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0]!.slice(0, 120) : 'not JSON';
    throw new DatasetFormatError(`${shown}: item ${index} is not valid JSON (${why}).`);
  }
}
