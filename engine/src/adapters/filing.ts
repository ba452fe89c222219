/**
 * Three agents with no model at all, playing the filing policies of the seed experiment: every
 * observation as its own note; one note per room overwritten in place (plus `global.md`); the
 * same plus a dreaming pass that re-checks each note against the session transcript when a
 * conversation ends. They answer by keyword search over their notes; notes that disagree make
 * the answer "not sure", which counts as wrong. Their notes are real files in their folder.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonLines } from '../jsonl';
import type { AgentAdapter, AgentMessage, AgentStatus, SendOptions } from '../protocol/agent';

export type FilingPolicy = 'log' | 'consolidated' | 'dreaming';

const OBSERVED = /\b(room-\d+) (?:is|looked) ([a-z]+)/gi;
const WOULD_NOT_OPEN = /\b(room-\d+)'s door[^.]*would not open/i;
const ASKED = /\b(room-\d+)\b/i;

/** One answer, as the experiment's table counts them. */
export interface FilingAnswer {
  room: string;
  scanned: number;
  conflict: boolean;
  answer: string;
}

export class FilingAdapter implements AgentAdapter {
  readonly quietPeriodMs = 50;
  readonly pollIntervalMs = 5;
  private replies: AgentMessage[] = [];
  private keys = new Set<string>();

  constructor(
    private readonly dir: string,
    readonly policy: FilingPolicy,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get notes(): string {
    return join(this.dir, 'notes');
  }

  async createSession(): Promise<void> {
    mkdirSync(this.notes, { recursive: true });
    if (this.policy !== 'log' && !existsSync(join(this.notes, 'global.md')))
      writeFileSync(join(this.notes, 'global.md'), "Goal: know every room's current state.\n");
    this.replies = readJsonLines<AgentMessage>(join(this.dir, 'replies.jsonl'));
    this.keys = new Set(readJsonLines<{ key: string }>(join(this.dir, 'transcript.jsonl')).map((e) => e.key));
  }

  async sendMessage(text: string, o: SendOptions): Promise<void> {
    if (this.keys.has(o.idempotencyKey)) return;
    this.keys.add(o.idempotencyKey);
    appendFileSync(join(this.dir, 'transcript.jsonl'), `${JSON.stringify({ key: o.idempotencyKey, text })}\n`);
    const reply = text.includes('?') ? this.answer(text) : this.record(text);
    const message = { seq: this.replies.length + 1, text: reply, at: this.now().toISOString() };
    appendFileSync(join(this.dir, 'replies.jsonl'), `${JSON.stringify(message)}\n`);
    this.replies.push(message);
  }

  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    return this.replies.filter((m) => m.seq > afterSeq);
  }

  async getStatus(): Promise<AgentStatus> {
    return { state: 'idle', compactions: [], contextTokens: null };
  }

  /** The end of a conversation: the dreaming policy re-checks its notes against the transcript. */
  async startNewConversation(): Promise<void> {
    if (this.policy === 'dreaming') this.dream();
  }

  async destroySession(): Promise<void> {
    rmSync(this.dir, { recursive: true, force: true });
  }

  memoryDir(): string {
    return this.notes;
  }

  private record(text: string): string {
    const seen = [...text.matchAll(OBSERVED)].map((m) => ({ room: (m[1] ?? '').toLowerCase(), state: (m[2] ?? '').toLowerCase() }));
    for (const { room, state } of seen) {
      if (this.policy === 'log') {
        const n = readdirSync(this.notes).length + 1;
        writeFileSync(join(this.notes, `note-${String(n).padStart(3, '0')}.md`), `${room} is ${state}\n`);
      } else {
        writeFileSync(join(this.notes, `${room}.md`), `${room}: ${state}\n`);
      }
    }
    return seen.length ? `Noted ${seen.length} observation${seen.length === 1 ? '' : 's'}.` : 'Noted.';
  }

  private answer(question: string): string {
    const room = ASKED.exec(question)?.[1]?.toLowerCase();
    if (!room) return 'I have no note about that.';
    const matching = readdirSync(this.notes)
      .map((f) => readFileSync(join(this.notes, f), 'utf8'))
      .filter((t) => t.includes(room));
    const states = [...new Set(matching.map((t) => /\b(?:is|:) ?([a-z]+)\s*$/.exec(t.trim())?.[1] ?? ''))];
    const answer =
      matching.length === 0
        ? `You never told me about ${room}.`
        : states.length > 1
          ? `I'm not sure: my notes on ${room} disagree.`
          : `${room} is ${states[0]}.`;
    const entry: FilingAnswer = { room, scanned: matching.length, conflict: states.length > 1, answer };
    appendFileSync(join(this.dir, 'answers.jsonl'), `${JSON.stringify(entry)}\n`);
    return answer;
  }

  /** Each room note against the latest thing the transcript says about the room. */
  private dream(): void {
    const transcript = readJsonLines<{ text: string }>(join(this.dir, 'transcript.jsonl')).map((e) => e.text);
    for (const file of readdirSync(this.notes).filter((f) => /^room-\d+\.md$/.test(f))) {
      const room = file.replace(/\.md$/, '');
      const noted = /: ([a-z]+)/.exec(readFileSync(join(this.notes, file), 'utf8'))?.[1];
      let latest: string | undefined;
      for (const text of transcript) {
        for (const sentence of text.split(/(?<=[.!?])\s+/)) {
          if (!sentence.toLowerCase().includes(room)) continue;
          const observed = [...sentence.matchAll(OBSERVED)].find((m) => (m[1] ?? '').toLowerCase() === room);
          if (observed) latest = (observed[2] ?? '').toLowerCase();
          else if (WOULD_NOT_OPEN.test(sentence)) latest = 'locked';
        }
      }
      if (latest && latest !== noted) {
        writeFileSync(join(this.notes, file), `${room}: ${latest}\n`);
        appendFileSync(join(this.dir, 'corrections.jsonl'), `${JSON.stringify({ room, from: noted, to: latest })}\n`);
      }
    }
  }
}
