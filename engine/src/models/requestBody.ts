/**
 * The body of a chat completion request as bytes, each message encoded once. A conversation is
 * sent again whole at every turn, and an agent that keeps its tool results (the notebook) sends
 * megabytes a run: `JSON.stringify` of the whole body and its UTF-8 encoding at every request
 * were most of what the client did (issue #17). Messages are never changed once made (the token
 * counts in `tokens.ts` rely on it too), so each one's JSON bytes are kept by identity and a body
 * is those bytes joined. The result is byte for byte `JSON.stringify` of the same body.
 */
import type { ChatMessage } from '../protocol/chat';

const encoded = new WeakMap<object, Buffer>();

/** The JSON of a message or a tool list, as UTF-8, encoded on its first request only. */
function jsonOf(value: object): Buffer {
  let bytes = encoded.get(value);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(value));
    encoded.set(value, bytes);
  }
  return bytes;
}

export interface ChatBody {
  model: string;
  messages: readonly ChatMessage[];
  tools?: readonly object[];
  stream?: boolean;
}

const COMMA = Buffer.from(',');
const MESSAGES_END = Buffer.from(']');
const TOOLS = Buffer.from(',"tools":');
const STREAM = Buffer.from(',"stream":true,"stream_options":{"include_usage":true}');
const END = Buffer.from('}');

/** `JSON.stringify({ model, messages, tools?, stream?, stream_options? })` as bytes, messages reused. */
export function chatRequestBody(body: ChatBody): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"model":${JSON.stringify(body.model)},"messages":[`)];
  body.messages.forEach((m, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(jsonOf(m));
  });
  parts.push(MESSAGES_END);
  if (body.tools?.length) parts.push(TOOLS, jsonOf(body.tools));
  if (body.stream) parts.push(STREAM);
  parts.push(END);
  return Buffer.concat(parts);
}
