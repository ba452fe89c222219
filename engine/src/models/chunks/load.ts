/**
 * The CLI's heavy dependencies, loaded on first use: the tokenizer, `openai` and `ws` are most of
 * its bundle, and most commands (`mmb --help`, `mmb check`) use none of them. In the bundle each
 * `./X` below is the file `dist/chunk-X.js` beside `cli.js` (scripts/build.mjs maps it); from the
 * sources it is the module itself. The loads are synchronous so that callers stay as they were.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a synchronous load on first use is the point of this file. */
import type * as TokenizerChunk from './tokenizer';
import type * as OpenAiChunk from './openai';
import type * as WsChunk from './ws';

let tokenizer: typeof TokenizerChunk | undefined;
let openai: typeof OpenAiChunk | undefined;
let ws: typeof WsChunk | undefined;

export function tokenizerChunk(): typeof TokenizerChunk {
  tokenizer ??= require('./tokenizer') as typeof TokenizerChunk;
  return tokenizer;
}

export function openAiChunk(): typeof OpenAiChunk {
  openai ??= require('./openai') as typeof OpenAiChunk;
  return openai;
}

export function wsChunk(): typeof WsChunk {
  ws ??= require('./ws') as typeof WsChunk;
  return ws;
}
