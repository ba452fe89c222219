/**
 * The notebook agent: its tools on a real folder and a real git, the injected layer's cap, the
 * duplicate guard, its compaction and consolidation on the stand-in over real HTTP, virtual time,
 * and whole runs of the bundled benchmarks through the real engine.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { NotebookAdapter } from '../src/adapters/notebook/adapter';
import { notebookOptions } from '../src/adapters/notebook/options';
import { NotesHistory } from '../src/adapters/notebook/git';
import { contentHash, findConflicts, injectedIndex, Notes } from '../src/adapters/notebook/notes';
import { runTool, type ToolContext } from '../src/adapters/notebook/tools';
import { adapterUsesStandIn, createAdapter } from '../src/adapters/registry';
import type { AgentAdapter } from '../src/protocol/agent';
import { Clock } from '../src/clock';
import type { ChatModel, ChatRequest, ChatResponse } from '../src/models/chat';
import { createModel } from '../src/models/resolve';
import { ConfigError } from '../src/errors';
import { startStandIn, type StandIn } from '../src/standin/server';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { average, grades, ROOT, runOnStandIn, starter, tempDir, joinedPattern } from './helpers';

/** A folder of notes with its git history and a tool runner, as the adapter builds them. */
async function toolbox(): Promise<{
  dir: string;
  notes: Notes;
  history: NotesHistory;
  tool: (name: string, args: Record<string, unknown>) => Promise<string>;
}> {
  const dir = tempDir('mmb-notes-');
  const notes = new Notes(join(dir, 'memory'));
  mkdirSync(notes.dir);
  const history = new NotesHistory(join(dir, 'memory.git'), notes.dir);
  await history.init();
  const ctx: ToolContext = {
    notes,
    history,
    transcripts: () => [
      {
        name: 'history/conversation-001.md',
        text: '[Sunday 1 March 2026, 20:30] user: My boat is called Wren.\n[Sunday 1 March 2026, 20:30] assistant: Noted.',
      },
    ],
  };
  let n = 0;
  const tool = async (name: string, args: Record<string, unknown>) =>
    (await runTool({ id: `c${++n}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }, ctx)).result;
  return { dir, notes, history, tool };
}

/** Sends like the engine does and waits until the agent is idle with a new reply. */
async function say(a: AgentAdapter, text: string, key: string): Promise<string> {
  const before = (await a.getResponses(0)).length;
  await a.sendMessage(text, { idempotencyKey: key });
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    const got = await a.getResponses(0);
    if (got.length > before && (await a.getStatus!()).state === 'idle') return got.at(-1)!.text;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${text}: no reply`);
}

/** Wraps a model and keeps a copy of every request it was sent. */
class Recording implements ChatModel {
  readonly name = 'recording';
  requests: ChatRequest[] = [];
  constructor(private readonly inner: ChatModel) {}
  complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(structuredClone(request));
    return this.inner.complete(request);
  }
}

const git = (dir: string, ...args: string[]) => execFileSync('git', ['--git-dir', join(dir, 'memory.git'), ...args], { encoding: 'utf8' });

describe("the notebook's tools", () => {
  test('paths stay in the memory folder: "..", absolute paths, other files and escaping symlinks are refused with what to do', async () => {
    const { dir, notes, tool } = await toolbox();
    assert.match(await tool('write_note', { path: '../escape.md', content: 'x' }), /^Error: \.\.\/escape\.md leaves the memory folder/);
    assert.match(
      await tool('read_note', { path: '/etc/passwd.md' }),
      /^Error: \/etc\/passwd\.md is an absolute path: give a path relative to the memory folder/,
    );
    assert.match(
      await tool('write_note', { path: 'notes.txt', content: 'x' }),
      /^Error: notes\.txt is not a markdown note: note paths end in "\.md"/,
    );
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'secret.md'), 'outside');
    symlinkSync(join(dir, 'outside'), join(notes.dir, 'link'));
    assert.match(
      await tool('read_note', { path: 'link/secret.md' }),
      /^Error: link\/secret\.md leads outside the memory folder \(through a symbolic link\)/,
    );
    assert.match(await tool('write_note', { path: 'link/new/x.md', content: 'x' }), /leads outside the memory folder/);
    assert.ok(!existsSync(join(dir, 'outside', 'new')), 'nothing was created outside');
    assert.match(
      await tool('write_note', { path: 'topics/move.md', content: '# Move\n- movers: Leeds Lift' }),
      /^Created topics\/move\.md\.$/,
    );
    assert.equal(readFileSync(join(notes.dir, 'topics', 'move.md'), 'utf8'), '# Move\n- movers: Leeds Lift\n');
    assert.match(await tool('write_note', { path: 'a.md', content: 'x' }), /^Created a\.md/);
    assert.match(
      await tool('read_note', { path: 'missing.md' }),
      /^Error: there is no note missing\.md; the notes are: a\.md, topics\/move\.md\./,
    );
    assert.match(await tool('write_note', { path: 'a.md' }), /^Error: write_note needs "content" as a string\./);
    assert.match(await tool('nope', {}), /^Error: there is no tool "nope"; the tools are list_notes, read_note/);
  });

  test('edit replaces one exact occurrence, and says what to do when the text is missing or not unique', async () => {
    const { notes, tool } = await toolbox();
    await tool('write_note', { path: 'move.md', content: '- movers: Two Lads & A Van, £380\n- boxes: 20\n- extra boxes: 20' });
    assert.match(
      await tool('edit_note', { path: 'move.md', old_text: 'Two Lads & A Van, £380', new_text: 'Leeds Lift, £340' }),
      /^Edited move\.md \(1 replacement\)\.$/,
    );
    assert.equal(notes.text('move.md'), '- movers: Leeds Lift, £340\n- boxes: 20\n- extra boxes: 20\n');
    assert.match(
      await tool('edit_note', { path: 'move.md', old_text: '£999', new_text: 'x' }),
      /^Error: old_text was not found in move\.md: it must match the note exactly.*Read the note with read_note/,
    );
    assert.match(
      await tool('edit_note', { path: 'move.md', old_text: '20', new_text: '25' }),
      /^Error: old_text occurs 2 times in move\.md: include more of the surrounding text so it is unique, or set replace_all to true\./,
    );
    assert.match(await tool('edit_note', { path: 'move.md', old_text: '20', new_text: '25', replace_all: true }), /2 replacements/);
    assert.match(await tool('edit_note', { path: 'move.md', old_text: '', new_text: 'x' }), /^Error: old_text is empty/);
    assert.match(await tool('write_note', { path: 'move.md', content: '- van: large', append: true }), /^Appended to move\.md\./);
    assert.equal(notes.text('move.md').split('\n').at(-2), '- van: large');
    assert.match(await tool('delete_note', { path: 'move.md' }), /^Deleted move\.md\./);
    assert.equal(await tool('list_notes', {}), 'The memory folder is empty.');
  });

  test('search finds the lines with the most words of the query first; search_history searches the transcripts', async () => {
    const { tool } = await toolbox();
    await tool('write_note', { path: 'move.md', content: '# Move\n- movers: Leeds Lift, £340 for the day\n- flat rent: £950 a month' });
    await tool('write_note', { path: 'dog.md', content: "- dog: Pepper, a beagle; chews movers' boxes" });
    assert.equal(
      await tool('search_notes', { query: 'Movers price £340' }),
      "move.md:2: - movers: Leeds Lift, £340 for the day\ndog.md:1: - dog: Pepper, a beagle; chews movers' boxes",
    );
    assert.equal(await tool('search_notes', { query: 'deposit' }), 'No note matches "deposit".');
    assert.match(await tool('search_notes', { query: '?' }), /^Error: the query has no words/);
    assert.equal(
      await tool('search_history', { query: 'boat' }),
      'history/conversation-001.md:1: [Sunday 1 March 2026, 20:30] user: My boat is called Wren.',
    );
    assert.match(await tool('list_notes', {}), /^dog\.md \(1 lines, \d+ bytes\)\nmove\.md \(3 lines, \d+ bytes\)$/);
  });

  test("file_history shows a fact's old value and when it changed, from git", async () => {
    const { notes, history, tool } = await toolbox();
    await tool('write_note', { path: 'move.md', content: '- movers: Two Lads & A Van, £380' });
    assert.match(await tool('file_history', { path: 'move.md' }), /^move\.md has no history yet/);
    await history.commit('turn 1', new Date('2026-03-01T20:30:00Z'));
    await tool('edit_note', { path: 'move.md', old_text: 'Two Lads & A Van, £380', new_text: 'Leeds Lift, £340' });
    await history.commit('turn 2', new Date('2026-03-04T09:15:00Z'));
    assert.equal(await history.commit('nothing changed', new Date()), false);
    const log = await tool('file_history', { path: 'move.md' });
    assert.match(log, /^commit [0-9a-f]+, 2026-03-04 09:15: turn 2\n/);
    assert.match(log, /^-- movers: Two Lads & A Van, £380$/m);
    assert.match(log, /^\+- movers: Leeds Lift, £340$/m);
    assert.match(log, /commit [0-9a-f]+, 2026-03-01 20:30: turn 1/);
    assert.equal(notes.text('move.md'), '- movers: Leeds Lift, £340\n');
  });
});

describe('the injected layer and the duplicate guard', () => {
  test('MEMORY.md is injected whole up to 200 lines and 25 KB; past either cap, its head with a note saying to read on demand', () => {
    const small = '# Memory\n- user: Sam\n';
    assert.equal(injectedIndex(small, 'MEMORY.md'), small);
    const long = Array.from({ length: 250 }, (_, i) => `- line ${i + 1}`).join('\n');
    const shown = injectedIndex(long, 'MEMORY.md');
    assert.ok(shown.includes('- line 200\n') && !shown.includes('- line 201'));
    assert.match(
      shown,
      joinedPattern([
        /\[MEMORY\.md is 250 lines, [\d.]+ KB: only its first 200 lines are shown here \(the cap is 200 lines or 25 KB\)\. /,
        /Read the rest on demand with read_note\("MEMORY\.md", from_line 201\)/,
      ]),
    );
    const wide = Array.from({ length: 100 }, (_, i) => `- fact ${i + 1}: ${'x'.repeat(400)}`).join('\n');
    const cut = injectedIndex(wide, 'MEMORY.md');
    assert.ok(Buffer.byteLength(cut) < 25 * 1024 + 400, `${Buffer.byteLength(cut)} bytes`);
    assert.match(cut, /only its first 6\d lines are shown/);
  });

  test('one fact in two places with different values is caught across notes; the same value, or different keys, are not', () => {
    const conflicts = findConflicts([
      { path: 'MEMORY.md', text: '# Memory\n- Flights: $520 r/t (paid)\n- hotel: Göreme, $110\n' },
      { path: 'max-trip.md', text: '- **flights**: $560 ✅ Paid\n- hotel: Göreme, $110.\n- (Sunday 1 March 2026, 20:30) ran 5 km\n' },
    ]);
    assert.deepEqual(conflicts, [
      {
        key: 'flights',
        places: [
          { path: 'MEMORY.md', line: 2, value: '$520 r/t (paid)' },
          { path: 'max-trip.md', line: 1, value: '$560 ✅ Paid' },
        ],
      },
    ]);
    assert.deepEqual(findConflicts([{ path: 'a.md', text: '- rent: £950\n- deposit: £950\n' }]), []);
  });

  test('a write that leaves a fact with two values comes back with the warning', async () => {
    const { tool } = await toolbox();
    await tool('write_note', { path: 'MEMORY.md', content: '- flights: $520 r/t' });
    const result = await tool('write_note', { path: 'trip.md', content: '- flights: $560 paid' });
    assert.match(
      result,
      /^Created trip\.md\.\n\nWarning: a fact is stored in two places with different values\. Keep one current value per fact/,
    );
    assert.match(result, /- "flights": MEMORY\.md:1 says "\$520 r\/t"; trip\.md:1 says "\$560 paid"/);
    assert.equal(
      await tool('edit_note', { path: 'MEMORY.md', old_text: '$520 r/t', new_text: '$560 paid' }),
      'Edited MEMORY.md (1 replacement).',
    );
  });
});

describe('the notebook on the stand-in', () => {
  let standIn: StandIn;
  before(async () => {
    standIn = await startStandIn();
  });
  after(async () => {
    await standIn.close();
  });
  const model = () => createModel({ model: 'stand-in' }, { standInUrl: standIn.url, env: {} }, 'agent_model');

  test('virtual time: the model is told the date, messages and notes carry it, commits are dated with it', async () => {
    const dir = tempDir('mmb-nb-');
    const recording = new Recording(model());
    const a = new NotebookAdapter(dir, recording);
    await a.createSession();
    await a.setVirtualTime('2026-03-11T07:35:00.000Z');
    assert.equal(await say(a, '8 km along the harbourside this morning.', 'k1'), 'Noted.');
    const system = recording.requests[0]?.messages[0]?.content ?? '';
    const user = recording.requests[0]?.messages.findLast((m) => m.role === 'user')?.content ?? '';
    assert.match(user, /^\[Wednesday 11 March 2026, 07:3[56]\] 8 km/, 'the user message carries the time');
    assert.match(user, /# MEMORY\.md\n\n# Memory/, "and, the first time, the index's head");
    assert.doesNotMatch(system, /Wednesday|MEMORY\.md\n\n# Memory/, 'the system message holds nothing that changes');
    assert.match(system, /One current value per fact/, 'the prompt comes from notebook-system.md');
    assert.match(
      readFileSync(join(dir, 'memory', 'notes.md'), 'utf8'),
      /^- \(Wednesday 11 March 2026, 07:3[56]\) 8 km along the harbourside this morning\.$/m,
    );
    assert.match(
      git(dir, 'log', '-1', '--format=%ad %s', '--date=iso'),
      /^2026-03-11 07:3[56]:\d\d \+0000 turn 1: 8 km along the harbourside/,
    );
    await a.close();
  });

  test('consolidation at a new conversation restores what the notes lack from the transcript; the next answers from notes', async () => {
    const dir = tempDir('mmb-nb-');
    const a = new NotebookAdapter(dir, model());
    await a.createSession();
    await say(a, 'The movers are Leeds Lift, £340 for the day.', 'k1');
    await say(a, 'The keys are handed over at 11:00 at the letting agent.', 'k2');
    const notes = join(dir, 'memory', 'notes.md');
    // A write the agent missed: the transcript still holds it.
    writeFileSync(
      notes,
      readFileSync(notes, 'utf8')
        .split('\n')
        .filter((l) => !l.includes('Leeds Lift'))
        .join('\n'),
    );
    await a.startNewConversation();
    assert.match(readFileSync(notes, 'utf8'), /Leeds Lift, £340/);
    const record = JSON.parse(readFileSync(join(dir, 'consolidations.jsonl'), 'utf8')) as { conversation: number; changed: boolean };
    assert.deepEqual([record.conversation, record.changed], [1, true]);
    assert.equal(git(dir, 'log', '-1', '--format=%s').trim(), 'consolidation after conversation 1');
    assert.match(readFileSync(join(dir, 'history', 'conversation-001.md'), 'utf8'), /user: The keys are handed over at 11:00/);
    assert.equal((await a.getStatus()).contextTokens! < 2000, true, 'the context was cleared');
    assert.match(await say(a, 'Who are the movers?', 'k3'), /Leeds Lift, £340/);
    const replies = (await a.getResponses(0)).length;
    await a.sendMessage('Who are the movers?', { idempotencyKey: 'k3' });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await a.getResponses(0)).length, replies, 'a key seen before is ignored');
    await a.close();
  });

  test('over its token budget: a summary replaces older turns, the compaction is reported, answers still come from the notes', async () => {
    const dir = tempDir('mmb-nb-');
    const a = createAdapter('notebook', {
      runDir: dir,
      options: { notebook_context_tokens: 2000 },
      models: { standInUrl: standIn.url, env: {} },
      clock: new Clock(),
    });
    await a.createSession('t');
    for (let i = 1; i <= 12; i++)
      await say(a, `Day ${i}: I walked ${i + 2} km by the river, saw ${i} herons and had lunch at café number ${i * 7}.`, `d${i}`);
    const status = await a.getStatus!();
    assert.ok(status.compactions && status.compactions.length >= 1, JSON.stringify(status));
    for (const c of status.compactions) assert.ok(c.tokensBefore! > 2000 && c.tokensAfter! < c.tokensBefore!, JSON.stringify(c));
    assert.ok(status.contextTokens! <= 2600, `context ${status.contextTokens}`);
    const journal = readFileSync(join(dir, 'agent', 'journal.jsonl'), 'utf8');
    assert.match(journal, /"kind":"compaction".*The user said, among other things: .*Day 1: I walked 3 km/);
    assert.match(await say(a, 'How many herons did I see on day 2?', 'q'), /Day 2: I walked 4 km by the river, saw 2 herons/);
    await a.close?.();
  });

  test('stopped between a tool call and its result: the restarted agent makes the journaled call once and finishes the turn', async () => {
    const dir = tempDir('mmb-nb-');
    const first = new NotebookAdapter(dir, model());
    await first.createSession();
    await first.close();
    const call = {
      id: 'call_pending',
      type: 'function' as const,
      function: { name: 'write_note', arguments: '{"path":"notes.md","content":"- My boat is called Wren.","append":true}' },
    };
    appendFileSync(
      join(dir, 'journal.jsonl'),
      [
        JSON.stringify({ kind: 'user', key: 'k1', text: 'My boat is called Wren.', at: '2026-03-01T20:30:00.000Z' }),
        JSON.stringify({ kind: 'step', message: { role: 'assistant', content: null, tool_calls: [call] } }),
        '',
      ].join('\n'),
    );
    const recording = new Recording(model());
    const again = new NotebookAdapter(dir, recording);
    await again.createSession();
    for (const deadline = Date.now() + 10_000; (await again.getResponses(0)).length === 0 && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(
      (await again.getResponses(0)).map((m) => m.text),
      ['Noted.'],
    );
    assert.equal(recording.requests.length, 1, 'the model is asked only for the reply after the call');
    assert.match(JSON.stringify(recording.requests[0]?.messages), /"tool_call_id":"call_pending","content":"Appended to notes.md."/);
    assert.equal(readFileSync(join(dir, 'memory', 'notes.md'), 'utf8'), '- My boat is called Wren.\n');
    await again.sendMessage('My boat is called Wren.', { idempotencyKey: 'k1' });
    assert.equal((await again.getResponses(0)).length, 1, 'the key journaled before the stop is still known');
    await again.close();
  });

  test('killed in a note write, the note removed or its new text cut: the restart finishes it or makes the call again, once', async () => {
    const call = {
      id: 'call_cut',
      type: 'function' as const,
      function: { name: 'write_note', arguments: '{"path":"notes.md","content":"- My boat is called Wren.","append":true}' },
    };
    const before = '- My car is blue.\n';
    const after = `${before}- My boat is called Wren.\n`;
    for (const [what, partial, noteLeft] of [
      ['the note removed, the new text whole beside it', after, undefined],
      ['the new text cut, the note as it was', after.slice(0, -9), before],
    ] as const) {
      const dir = tempDir('mmb-nb-');
      const first = new NotebookAdapter(dir, model());
      await first.createSession();
      await first.close();
      const change = { kind: 'change', call: call.id, path: 'notes.md', after: contentHash(after), done: 'Appended to notes.md.' };
      appendFileSync(
        join(dir, 'journal.jsonl'),
        [
          { kind: 'user', key: 'k1', text: 'My boat is called Wren.', at: '2026-03-01T20:30:00.000Z' },
          { kind: 'step', message: { role: 'assistant', content: null, tool_calls: [call] } },
          change,
        ]
          .map((e) => `${JSON.stringify(e)}\n`)
          .join(''),
      );
      if (noteLeft !== undefined) writeFileSync(join(dir, 'memory', 'notes.md'), noteLeft);
      writeFileSync(join(dir, '.memory.partial'), partial);
      const recording = new Recording(model());
      const again = new NotebookAdapter(dir, recording);
      await again.createSession();
      for (const deadline = Date.now() + 10_000; (await again.getResponses(0)).length === 0 && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 5));
      assert.deepEqual(
        (await again.getResponses(0)).map((m) => m.text),
        ['Noted.'],
        what,
      );
      assert.equal(readFileSync(join(dir, 'memory', 'notes.md'), 'utf8'), after, `${what}: the line written once`);
      assert.equal(existsSync(join(dir, '.memory.partial')), false, `${what}: nothing left beside the folder`);
      assert.equal(recording.requests.length, 1, `${what}: the model is asked only for the reply after the call`);
      await again.close();
    }
  });

  test('a model that never stops calling tools fails the turn with what to do', async () => {
    const looping: ChatModel = {
      name: 'looping',
      complete: async () => ({
        message: { content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'list_notes', arguments: '{}' } }] },
        usage: { promptTokens: 0, completionTokens: 0 },
      }),
    };
    const a = new NotebookAdapter(tempDir('mmb-nb-'), looping, { contextTokens: 32_000, maxToolRounds: 3 });
    await a.createSession();
    await a.sendMessage('hello', { idempotencyKey: 'k' });
    await a.close();
    await assert.rejects(
      a.getResponses(0),
      /the notebook agent failed: its model called tools for 3 rounds without replying; raise the run key `notebook_max_tool_rounds`/,
    );
  });

  test('its run keys are checked, and it uses the stand-in unless agent_model names another model', () => {
    assert.deepEqual(notebookOptions({}), { contextTokens: 32_000, maxToolRounds: 12 });
    assert.throws(
      () => notebookOptions({ notebook_context_tokens: '8k' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /the run key `notebook_context_tokens` must be a whole number from 2000 to 2000000 .*; it is "8k"\./.test(e.message),
    );
    assert.throws(
      () => notebookOptions({ notebook_max_tool_rounds: 0 }),
      /`notebook_max_tool_rounds` must be a whole number from 1 to 100/,
    );
    assert.equal(adapterUsesStandIn('notebook', {}), true);
    assert.equal(adapterUsesStandIn('notebook', { agent_model: { model: 'gpt-x', base_url: 'https://h/v1' } }), false);
  });
});

describe('whole runs through the real engine', () => {
  test('starter: after the session switch the notebook answers from notes where the chatbot cannot; memory snapshots saved', async () => {
    const notebook = await runOnStandIn(starter(), { agent: 'notebook' });
    const chatbot = await runOnStandIn(starter());
    assert.equal(notebook.state.status, 'finished', notebook.state.error);
    const g = grades(notebook.state);
    assert.equal(g['3.2'], 10, 'Leeds Lift, £340, told before the switch');
    assert.equal(g['3.3'], 10, 'the first quote, £380');
    assert.equal(grades(chatbot.state)['3.2'], 0);
    assert.ok(average(notebook.state) >= average(chatbot.state) + 3, `${average(notebook.state)} vs ${average(chatbot.state)}`);
    assert.deepEqual(readdirSync(join(notebook.dir, 'memory')).sort(), ['1', '2'], 'before the switch and at the end');
    assert.match(readFileSync(join(notebook.dir, 'memory', '1', 'notes.md'), 'utf8'), /Leeds Lift", who quoted £340/);
    assert.match(readFileSync(join(notebook.dir, 'memory', '2', 'MEMORY.md'), 'utf8'), /^- notes\.md: /m);
    assert.ok(!existsSync(join(notebook.dir, 'memory', '1', '.git')), 'the history stays out of the snapshots');
    assert.ok(notebook.state.agentStatus?.compactions && notebook.state.agentStatus.contextTokens! > 0);
    // Its tool calls are journaled with the replies they led to, for the report to show beside them.
    const withCalls = notebook.state.transcript.filter((e) => e.from === 'agent' && e.toolCalls?.length);
    assert.ok(withCalls.length > 0, 'some reply carries its tool calls');
    assert.ok(
      withCalls.some((e) => e.toolCalls!.some((c) => c.name === 'write_note' && /Leeds Lift/.test(c.arguments) && c.result !== undefined)),
      'the write of the booking, with its result',
    );
  });

  test('multiday: on virtual time its notes are dated day by day and it answers the exam after the switch', async () => {
    const b = loadBenchmark(readBenchmarkFolder(join(ROOT, 'benchmarks', 'multiday')));
    const { state, dir } = await runOnStandIn(b, {
      agent: 'notebook',
      extra: { timeMaster: { minSleepToSkipMs: 5000, preWakeDelayMs: 20, pollIntervalMs: 10 } },
    });
    assert.equal(state.status, 'finished', state.error);
    const g = grades(state);
    assert.equal(g['15.2'], 10, '8.4 km on Wednesday 11 March');
    assert.equal(g['15.4'], 10, '5 km on the day without signal');
    assert.equal(g['15.6'], 10, 'Tuesdays and Thursdays');
    const notes = readFileSync(join(dir, 'agent', 'memory', 'notes.md'), 'utf8');
    assert.match(notes, /^- \(Wednesday 11 March 2026, 07:\d\d\) 8 km along the harbourside/m);
    const dates = git(join(dir, 'agent'), 'log', '--format=%ad', '--date=short').trim().split('\n');
    assert.ok(dates.includes('2026-03-02') && dates.includes('2026-03-14'), dates.join(' '));
  });
});
