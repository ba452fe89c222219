/**
 * The notebook stopped by a kill at exact moments, deterministically: the model call after a
 * step of tool calls never returns (the process is as good as dead there), the journal's last
 * line is dropped when it is a tool result (the kill came after the note was written, before its
 * result was journaled), and a fresh adapter resumes in the same folder. Its notes, its replies,
 * its commits and its consolidation records must end exactly as an uninterrupted run's. Also the
 * engine's memory snapshot, stopped mid-copy or before its event was journaled.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NotebookAdapter } from '../src/adapters/notebook/adapter';
import type { ChatModel, ChatRequest, ChatResponse } from '../src/models/chat';
import { createModel } from '../src/models/resolve';
import type { RunContext } from '../src/run/context';
import { finishRun } from '../src/run/phaseEntry';
import { startStandIn, type StandIn } from '../src/standin/server';
import { tempDir } from './helpers';

/** The model, until its call number `hangAt` (from 1), which never returns: the engine died there. */
class Hanging implements ChatModel {
  readonly name = 'stand-in';
  calls = 0;
  reached = false;
  constructor(
    private readonly inner: ChatModel,
    private readonly hangAt: number,
  ) {}
  complete(request: ChatRequest): Promise<ChatResponse> {
    if (++this.calls === this.hangAt) {
      this.reached = true;
      return new Promise(() => undefined);
    }
    return this.inner.complete(request);
  }
}

const TIME = '2026-03-11T07:35:00.000Z';
const STATEMENTS = [
  '8 km along the harbourside this morning.',
  'The movers are Leeds Lift, £340 for the day.',
  'The keys are handed over at 11:00 at the letting agent.',
];

async function until(what: string, done: () => Promise<boolean> | boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Sends the message unless it was sent before the stop, and waits for its reply. */
async function say(agent: NotebookAdapter, text: string, key: string, replies: number): Promise<void> {
  await agent.sendMessage(text, { idempotencyKey: key });
  await until(
    `the reply to ${key}`,
    async () => (await agent.getResponses(0)).length >= replies && (await agent.getStatus()).state === 'idle',
  );
}

/** Drops the journal's last line when it is a tool result: the kill came right after the note was written. */
function dropTrailingResult(dir: string): boolean {
  const file = join(dir, 'journal.jsonl');
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').filter(Boolean);
  const last = JSON.parse(lines.at(-1) ?? '{}') as { kind?: string; message?: { role?: string } };
  if (last.kind !== 'step' || last.message?.role !== 'tool') return false;
  truncateSync(file, Buffer.byteLength(text) - Buffer.byteLength(`${lines.at(-1)}\n`));
  return true;
}

function memoryOf(dir: string) {
  const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
  const git = (...args: string[]) => execFileSync('git', ['--git-dir', join(dir, 'memory.git'), ...args], { encoding: 'utf8' });
  const records = read('consolidations.jsonl')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    notes: read('memory/notes.md'),
    index: read('memory/MEMORY.md'),
    commits: git('log', '--format=%ad %s', '--date=iso').trim().split('\n'),
    consolidations: records.map(({ conversation, parts, reply, changed, conflictsBefore, conflictsAfter }) => ({
      conversation,
      parts,
      reply,
      changed,
      conflictsBefore,
      conflictsAfter,
    })),
  };
}

describe('the notebook killed at exact moments', () => {
  let standIn: StandIn;
  before(async () => {
    standIn = await startStandIn();
  });
  after(async () => {
    await standIn.close();
  });
  const model = () => createModel({ model: 'stand-in' }, { standInUrl: standIn.url, env: {} }, 'agent_model');

  /** Three statements, then a conversation switch whose consolidation restores a note the agent lost, then a question. */
  async function script(agent: NotebookAdapter, dir: string, from: { lost: boolean; switched: boolean }): Promise<void> {
    for (const [i, text] of STATEMENTS.entries()) await say(agent, text, `k${i}`, i + 1);
    if (!from.lost) {
      // A write the agent missed: the consolidation pass adds it back from the transcript.
      const notes = join(dir, 'memory', 'notes.md');
      writeFileSync(
        notes,
        readFileSync(notes, 'utf8')
          .split('\n')
          .filter((l) => !l.includes('Leeds Lift'))
          .join('\n'),
      );
      from.lost = true;
    }
    // As the engine does: the switch is made again after a stop until its phase was journaled.
    if (!from.switched) await agent.startNewConversation();
    from.switched = true;
    await say(agent, 'Who are the movers?', 'q', STATEMENTS.length + 1);
  }

  async function reference(): Promise<{ memory: ReturnType<typeof memoryOf>; replies: string[]; calls: number }> {
    const dir = tempDir('mmb-nbk-');
    const counting = new Hanging(model(), Number.POSITIVE_INFINITY);
    const agent = new NotebookAdapter(dir, counting, undefined, () => new Date(TIME));
    await agent.createSession();
    await script(agent, dir, { lost: false, switched: false });
    const replies = (await agent.getResponses(0)).map((m) => m.text);
    await agent.close();
    return { memory: memoryOf(dir), replies, calls: counting.calls };
  }

  test('a kill at any model call, before or after the last note write was journaled, resumes to the uninterrupted end', async () => {
    const expected = await reference();
    assert.match(expected.replies.at(-1) ?? '', /Leeds Lift, £340/);
    assert.equal(expected.memory.consolidations.length, 1);
    assert.equal(expected.memory.consolidations[0]?.changed, true);
    for (let hangAt = 2; hangAt <= expected.calls; hangAt++) {
      for (const dropResult of [false, true]) {
        const context = `killed at model call ${hangAt}${dropResult ? ', the last tool result not journaled' : ''}`;
        const dir = tempDir('mmb-nbk-');
        const lost = { lost: false, switched: false };
        const first = new Hanging(model(), hangAt);
        const dying = new NotebookAdapter(dir, first, undefined, () => new Date(TIME));
        await dying.createSession();
        // The first life runs until its model call hangs; what it was doing stays unfinished.
        void script(dying, dir, lost).catch(() => undefined);
        await until(`${context}: the hanging call`, () => first.reached);
        if (dropResult && !dropTrailingResult(dir)) continue;
        const again = new NotebookAdapter(dir, model(), undefined, () => new Date(TIME));
        await again.createSession();
        await script(again, dir, lost);
        assert.deepEqual(
          (await again.getResponses(0)).map((m) => m.text),
          expected.replies,
          context,
        );
        assert.deepEqual(memoryOf(dir), expected.memory, context);
        await again.close();
      }
    }
  });

  test("a kill after the consolidation record, before the conversation's end was journaled: the pass is not recorded twice", async () => {
    const dir = tempDir('mmb-nbk-');
    const agent = new NotebookAdapter(dir, model(), undefined, () => new Date(TIME));
    await agent.createSession();
    for (const [i, text] of STATEMENTS.entries()) await say(agent, text, `k${i}`, i + 1);
    await agent.startNewConversation();
    const journal = join(dir, 'journal.jsonl');
    const text = readFileSync(journal, 'utf8');
    const lines = text.split('\n').filter(Boolean);
    assert.match(lines.at(-1) ?? '', /"kind":"new-conversation"/);
    truncateSync(journal, Buffer.byteLength(text) - Buffer.byteLength(`${lines.at(-1)}\n`));
    const again = new NotebookAdapter(dir, model(), undefined, () => new Date(TIME));
    await again.createSession();
    await again.startNewConversation();
    const memory = memoryOf(dir);
    assert.deepEqual(
      memory.consolidations.map((c) => c.conversation),
      [1],
      'one record for conversation 1',
    );
    assert.equal(
      memory.commits.filter((c) => c.endsWith('consolidation after conversation 1')).length,
      0,
      'nothing to commit: the notes agreed',
    );
    assert.equal(memory.notes.split('\n').filter((l) => l.includes('Leeds Lift')).length, 1);
    await again.close();
  });
});

describe('memory snapshots across a kill', () => {
  test('a kill mid-copy, or after the copy before the event was journaled: the resume rewrites the same memory/<n>/ whole', () => {
    const dir = tempDir('mmb-snap-');
    const memory = join(dir, 'agent', 'memory');
    mkdirSync(memory, { recursive: true });
    writeFileSync(join(memory, 'notes.md'), '- the whole note\n');
    const snapshots = join(dir, 'memory');
    // What a kill in the middle of the first copy left: half a folder, and a stale part of it.
    mkdirSync(join(snapshots, '1'), { recursive: true });
    writeFileSync(join(snapshots, '1', 'notes.md'), '- the wh');
    writeFileSync(join(snapshots, '1', 'stale.md'), 'from a copy cut short');
    const events: string[] = [];
    const run = {
      options: { snapshotDir: snapshots, adapter: { memoryDir: () => memory } },
      state: { sessionSwitches: [{ at: '', position: { chapter: 'a.md', chapterIndex: 0, phase: 0 }, ignored: true }] },
      record: (event: { type: string }) => events.push(event.type),
      now: () => '2026-03-11T07:35:00.000Z',
    } as unknown as RunContext;
    finishRun(run);
    // Killed before `finish` was journaled: the resume finishes again.
    finishRun(run);
    assert.deepEqual(readdirSync(snapshots), ['1'], 'one snapshot: the first conversation (an ignored switch does not count)');
    assert.deepEqual(readdirSync(join(snapshots, '1')), ['notes.md']);
    assert.equal(readFileSync(join(snapshots, '1', 'notes.md'), 'utf8'), '- the whole note\n');
    assert.deepEqual(events, ['finish', 'finish']);
  });
});
