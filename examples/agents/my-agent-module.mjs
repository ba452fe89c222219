// A complete module agent for MarathonMemBench ("agent": "./agents/my-agent-module.mjs"): the
// default export makes an AgentAdapter (types: `import('marathon-mem-bench/agent')`). It is the
// process example's agent in-process: every statement the user makes goes into memory/notes.jsonl
// (its long-term memory), and each reply asks context.model with the earlier notes in front.
// Replies are stamped with context.now(), the run's clock, so it lives on virtual time.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** @param {import('marathon-mem-bench/agent').AgentModuleContext} context */
export default function createAgent(context) {
  const notesFile = join(context.home, 'memory', 'notes.jsonl');
  const stateFile = join(context.home, 'state.json');
  const blank = () => ({ replies: [], conversation: [], keys: [] });
  let state = blank();
  let busy;
  let failure; // a failed reply, thrown at the engine's next call rather than lost
  const save = () => {
    mkdirSync(context.home, { recursive: true });
    writeFileSync(stateFile, JSON.stringify(state));
  };
  const notes = () =>
    existsSync(notesFile)
      ? readFileSync(notesFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];

  async function reply(text) {
    const said = state.conversation.filter((m) => m.role === 'user').map((m) => m.content);
    const earlier = notes().filter((note) => !said.includes(note));
    const messages = [{ role: 'system', content: 'You are a helpful personal assistant. Answer briefly.' }];
    if (earlier.length) messages.push({ role: 'user', content: `Notes from our earlier conversations: ${earlier.join(' ')}` });
    messages.push(...state.conversation, { role: 'user', content: text });
    const response = await fetch(`${context.model.baseUrl.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      signal: AbortSignal.timeout(120_000),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${context.model.apiKey}` },
      body: JSON.stringify({ model: context.model.model, messages }),
    });
    if (!response.ok) throw new Error(`the model answered ${response.status}`);
    const answer = (await response.json()).choices[0].message.content ?? '';
    if (!text.includes('?')) {
      mkdirSync(join(context.home, 'memory'), { recursive: true });
      appendFileSync(notesFile, `${JSON.stringify(text)}\n`);
    }
    state.conversation.push({ role: 'user', content: text }, { role: 'assistant', content: answer });
    state.replies.push({ seq: state.replies.length + 1, text: answer, at: context.now().toISOString() });
    save();
  }

  return {
    quietPeriodMs: 500,
    pollIntervalMs: 20,
    async createSession() {
      state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : blank();
    },
    async sendMessage(text, { idempotencyKey }) {
      if (state.keys.includes(idempotencyKey)) return; // a resumed run: already answered
      await busy;
      state.keys.push(idempotencyKey);
      busy = reply(text)
        .catch((error) => {
          failure = error;
        })
        .finally(() => {
          busy = undefined;
        });
    },
    async getResponses(afterSeq) {
      if (failure) {
        const error = failure;
        failure = undefined;
        throw error;
      }
      return state.replies.filter((r) => r.seq > afterSeq);
    },
    async getStatus() {
      return { state: busy ? 'thinking' : 'idle', compactions: [], contextTokens: null };
    },
    async startNewConversation() {
      await busy;
      state.conversation = [];
      save();
    },
    async destroySession() {
      await busy?.catch(() => {});
      rmSync(context.home, { recursive: true, force: true });
      state = blank();
    },
    memoryDir: () => join(context.home, 'memory'),
    async close() {
      await busy?.catch(() => {});
    },
  };
}
