#!/usr/bin/env node
// A complete agent for MarathonMemBench's process protocol, version 1 (docs/agent-protocol.md),
// in Node with no dependency. Every statement the user makes goes into memory/notes.jsonl, its
// long-term memory, which outlives a new conversation; each reply asks the OpenAI-compatible
// model the engine names (MMB_MODEL_BASE_URL: the stand-in in a rehearsal) with the notes of
// earlier conversations in front. Its state lives in MMB_AGENT_HOME, so a restarted engine finds
// its replies again.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const HOME = process.env.MMB_AGENT_HOME;
const NOTES = join(HOME, 'memory', 'notes.jsonl');
const STATE = join(HOME, 'state.json');

const load = () => (existsSync(STATE) ? JSON.parse(readFileSync(STATE, 'utf8')) : { replies: [], conversation: [], keys: [] });
const notes = () =>
  existsSync(NOTES)
    ? readFileSync(NOTES, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

// Written aside and renamed: a kill, or a full disk, never leaves half a file.
function writeWhole(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

const save = (state) => writeWhole(STATE, JSON.stringify(state));

async function askModel(messages) {
  const response = await fetch(`${process.env.MMB_MODEL_BASE_URL.replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.MMB_MODEL_API_KEY ?? 'none'}` },
    body: JSON.stringify({ model: process.env.MMB_MODEL ?? 'stand-in', messages }),
    signal: AbortSignal.timeout(120_000),
  });
  if (!response.ok) throw new Error(`the model answered ${response.status}`);
  return (await response.json()).choices[0].message.content ?? '';
}

async function send(state, text, key) {
  if (state.keys.includes(key)) return null; // the same key twice: a resumed run, already answered
  const said = state.conversation.filter((m) => m.role === 'user').map((m) => m.content);
  const earlier = notes().filter((note) => !said.includes(note));
  const messages = [{ role: 'system', content: 'You are a helpful personal assistant. Answer briefly.' }];
  if (earlier.length) messages.push({ role: 'user', content: `Notes from our earlier conversations: ${earlier.join(' ')}` });
  const answer = await askModel([...messages, ...state.conversation, { role: 'user', content: text }]);
  // Kept only once both files are written: a failed write (a full disk) leaves the state as it was, and the
  // engine sends the message again after it resumes. A note written before is not written twice.
  const known = notes();
  if (!text.includes('?') && !known.includes(text)) writeWhole(NOTES, [...known, text].map((note) => `${JSON.stringify(note)}\n`).join(''));
  const next = {
    conversation: [...state.conversation, { role: 'user', content: text }, { role: 'assistant', content: answer }],
    // reply_to: the key of the message answered, so that a resumed engine matches each reply to its message.
    replies: [...state.replies, { seq: state.replies.length + 1, text: answer, at: new Date().toISOString(), reply_to: key }],
    keys: [...state.keys, key],
  };
  save(next);
  Object.assign(state, next);
  return null;
}

let state = load();
const methods = {
  initialize: () => ({ protocol: 1, name: 'my-agent.mjs', methods: ['new_conversation', 'status'], memory_dir: 'memory' }),
  create: () => null,
  send: (params) => send(state, params.text, params.key),
  responses: (params) => ({ messages: state.replies.filter((r) => r.seq > params.after) }),
  new_conversation: () => {
    save({ ...state, conversation: [] });
    state.conversation = [];
    return null;
  },
  status: () => ({ state: 'idle', context_tokens: state.conversation.reduce((n, m) => n + Math.ceil(m.content.length / 4), 0) }),
  // Empties the home rather than removing it: in the sandbox it is a mount point, which cannot be removed.
  destroy: () => {
    for (const entry of existsSync(HOME) ? readdirSync(HOME) : []) rmSync(join(HOME, entry), { recursive: true, force: true });
    state = load();
    return null;
  },
  shutdown: () => null,
};

// One request per line, answered in order; replies on stdout, logs on stderr.
for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  const method = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
  try {
    if (!method) throw new Error(`unknown method ${request.method}`);
    process.stdout.write(`${JSON.stringify({ id: request.id, result: await method(request.params ?? {}) })}\n`);
  } catch (error) {
    // errors are data: the engine shows the message; a full disk's code (ENOSPC) stops the run to resume
    process.stdout.write(`${JSON.stringify({ id: request.id, error: { code: error.code ?? error.name, message: error.message } })}\n`);
  }
  if (request.method === 'shutdown') break;
}
