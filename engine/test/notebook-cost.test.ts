/**
 * What a notebook turn costs beside its model: the git processes it starts, the tokens it counts,
 * and how much of each request repeats the last one's prefix (what a provider's cache reuses).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { NotebookAdapter } from '../src/adapters/notebook/adapter';
import { LooseRepository } from '../src/adapters/notebook/gitObjects';
import { contextMessages, Journal, type Entry } from '../src/adapters/notebook/journal';
import type { ChatModel, ChatRequest, ChatResponse } from '../src/models/chat';
import { createModel } from '../src/models/resolve';
import { startStandIn, type StandIn } from '../src/standin/server';
import { tempDir } from './helpers';

let standIn: StandIn;
before(async () => {
  standIn = await startStandIn();
});
after(async () => {
  await standIn.close();
});

class Recording implements ChatModel {
  readonly name = 'recording';
  requests: ChatRequest[] = [];
  constructor(private readonly inner: ChatModel) {}
  complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(structuredClone(request));
    return this.inner.complete(request);
  }
}

async function say(a: NotebookAdapter, text: string, key: string): Promise<void> {
  await a.sendMessage(text, { idempotencyKey: key });
  await a.whenSettled();
}

/** A `git` first on PATH that logs each call's subcommand, then runs the real one. */
function countingGit(): { calls: () => string[]; restore: () => void } {
  const dir = tempDir('mmb-git-shim-');
  const log = join(dir, 'calls.log');
  writeFileSync(log, '');
  const real = process.env.PATH ?? '';
  const shim = join(dir, 'git');
  writeFileSync(
    shim,
    [
      '#!/bin/sh',
      `for a in "$@"; do case "$a" in add|commit|status|log|rev-list|init) echo "$a" >> '${log}'; break;; esac; done`,
      `PATH='${real}' exec git "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(shim, 0o755);
  process.env.PATH = `${dir}:${real}`;
  return {
    calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
    restore: () => {
      process.env.PATH = real;
    },
  };
}

test('a turn starts no git process: its commit is written as objects that git reads back whole (fsck, log, show)', async () => {
  const git = countingGit();
  try {
    const dir = tempDir('mmb-nb-cost-');
    const a = new NotebookAdapter(dir, createModel({ model: 'stand-in' }, { standInUrl: standIn.url, env: {} }, 'agent_model'));
    await a.createSession();
    const atStart = git.calls();
    await say(a, 'My boat is called Wren.', 'k1');
    await say(a, 'What is my boat called?', 'k2');
    await say(a, 'It is moored in Bristol.', 'k3');
    assert.deepEqual(
      git.calls().slice(atStart.length),
      [],
      'a turn that created a note, one that changed none, one that appended: no git at all',
    );
    const repo = (...args: string[]) => execFileSync('git', ['--git-dir', join(dir, 'memory.git'), ...args], { encoding: 'utf8' });
    repo('fsck', '--strict', '--no-dangling');
    const log = repo('log', '--format=%s|%an <%ae>').trim().split('\n');
    assert.deepEqual(
      log.map((s) => s.replace(/:.*\|/, '|')),
      [
        'turn 3|notebook <notebook@marathonmembench.invalid>',
        'turn 1|notebook <notebook@marathonmembench.invalid>',
        'the notebook starts|notebook <notebook@marathonmembench.invalid>',
      ],
      'each turn that changed a note is one commit',
    );
    assert.match(repo('show', 'HEAD:notes.md'), /Bristol/);
    assert.match(repo('log', '-p', '--follow', '--', 'notes.md'), /^\+.*Wren/m, 'the history the note_history tool reads');
    assert.deepEqual(
      repo('ls-tree', '-r', '--name-only', 'HEAD').trim().split('\n'),
      readdirSync(join(dir, 'memory')).sort(),
      'the last commit holds every note of the folder',
    );
    await a.close();
  } finally {
    git.restore();
  }
});

test('each message of the context is the same object from turn to turn, so its tokens are counted once', () => {
  const entries: Entry[] = [
    { kind: 'user', key: 'k1', text: 'Hello.', at: '2026-03-01T10:00:00.000Z' },
    { kind: 'reply', seq: 1, text: 'Hi.', at: '2026-03-01T10:00:01.000Z' },
    { kind: 'compaction', at: '2026-03-01T10:01:00.000Z', summary: 'They said hello.', keep: 0, tokensBefore: 10, tokensAfter: 5 },
    { kind: 'user', key: 'k2', text: 'Again.', at: '2026-03-01T10:02:00.000Z' },
  ];
  const first = contextMessages(entries);
  entries.push({ kind: 'reply', seq: 2, text: 'Yes.', at: '2026-03-01T10:02:01.000Z' });
  const second = contextMessages(entries);
  assert.equal(second.length, first.length + 1);
  first.forEach((message, i) => assert.equal(second[i], message, `message ${i} is the same object`));
});

test('no message ever changes, the system one included: each request extends the whole previous one, as a prefix cache needs', async () => {
  const recording = new Recording(createModel({ model: 'stand-in' }, { standInUrl: standIn.url, env: {} }, 'agent_model'));
  const a = new NotebookAdapter(tempDir('mmb-nb-prefix-'), recording);
  await a.createSession();
  await a.setVirtualTime('2026-03-11T07:35:00.000Z');
  const facts = [
    'The movers are Leeds Lift.',
    'They charge £340 for the day.',
    'My sister Anna is a doctor.',
    'The boat is called Wren.',
    'It is moored in Bristol.',
  ];
  for (let i = 0; i < 12; i++) {
    await say(a, i % 3 === 2 ? 'What do the movers charge?' : `${facts[i % facts.length]} (${i})`, `k${i}`);
    // The minute clock moves on between turns: no message may show it but the user's own stamp.
    await a.setVirtualTime(new Date(Date.parse('2026-03-11T07:35:00.000Z') + (i + 1) * 7 * 60_000).toISOString());
  }
  const requests = recording.requests.map((r) => r.messages.map((m) => JSON.stringify(m)));
  assert.ok(requests.length > 12, `${requests.length} requests`);
  requests.forEach((messages, i) => {
    const previous = requests[i - 1] ?? [];
    assert.deepEqual(messages.slice(0, previous.length), previous, `request ${i} begins with the whole of request ${i - 1}`);
  });
  const states = recording.requests.at(-1)!.messages.filter((m) => m.role === 'user' && m.content.includes('# MEMORY.md'));
  assert.ok(
    states.length >= 1 && states.length <= 3,
    `the index's head is shown when it changed, not at every turn: ${states.length} times in 12 turns`,
  );
  await a.close();
});

test('the tree written is the very tree git makes of the folder: subfolders sorted as git sorts them, empty ones left out', () => {
  const dir = tempDir('mmb-nb-tree-');
  const work = join(dir, 'memory');
  const gitDir = join(dir, 'memory.git');
  for (const [path, text] of [
    ['a.md', 'one\n'],
    ['a-b.md', 'two\n'],
    ['a/x.md', 'three £\n'],
    ['a0.md', ''],
    ['b/c/d.md', 'deep\n'],
  ] as const) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), text);
  }
  mkdirSync(join(work, 'empty'));
  execFileSync('git', ['--git-dir', gitDir, 'init', '-q', '--initial-branch=main']);
  const history = new LooseRepository(gitDir, work);
  const first = history.commitFolder('first  \n', new Date('2026-03-01T10:00:00.500Z'));
  assert.ok(first.id);
  assert.deepEqual(history.commitFolder('again', new Date('2026-03-01T10:01:00Z')), {}, 'nothing changed: no commit');
  const repo = (...args: string[]) =>
    execFileSync('git', ['--git-dir', gitDir, '--work-tree', work, ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_INDEX_FILE: join(dir, 'check-index') },
    });
  repo('add', '-A');
  assert.equal(repo('rev-parse', 'HEAD^{tree}').trim(), repo('write-tree').trim(), "git's own tree of the folder");
  assert.equal(repo('log', '-1', '--format=%s|%ad', '--date=iso-strict').trim(), 'first|2026-03-01T10:00:00+00:00');
  repo('fsck', '--strict', '--no-dangling');
});

test('a commit naming the changed notes reads only those, and its tree is still the very tree git makes of the folder', () => {
  const dir = tempDir('mmb-nb-changed-');
  const work = join(dir, 'memory');
  const gitDir = join(dir, 'memory.git');
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), text);
  };
  for (const [path, text] of [
    ['MEMORY.md', '# Memory\n'],
    ['people/anna.md', 'Anna\n'],
    ['people/lena.md', 'Lena\n'],
    ['topics/move.md', 'Move\n'],
  ] as const)
    put(path, text);
  execFileSync('git', ['--git-dir', gitDir, 'init', '-q', '--initial-branch=main']);
  const repo = (...args: string[]) =>
    execFileSync('git', ['--git-dir', gitDir, '--work-tree', work, ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_INDEX_FILE: join(dir, 'check-index') },
    });
  const gitTree = () => {
    repo('add', '-A');
    return repo('write-tree').trim();
  };
  const history = new LooseRepository(gitDir, work);
  assert.ok(history.commitFolder('first', new Date('2026-03-01T10:00:00Z')).id);
  const steps: [string, () => void, string[]][] = [
    ['a note rewritten', () => put('people/anna.md', 'Anna, 37, a doctor\n'), ['people/anna.md']],
    ['a new note in a new folder, named as the model wrote it', () => put('places/home/flat.md', 'Flat\n'), ['./places//home/flat.md']],
    ['the last note of a folder deleted: the folder goes too', () => rmSync(join(work, 'topics', 'move.md')), ['topics/move.md']],
    ['a note made executable', () => chmodSync(join(work, 'people', 'lena.md'), 0o755), ['people/lena.md']],
    ['a path outside the folder: the whole folder is read', () => put('MEMORY.md', '# Memory\n\n- Anna\n'), ['../elsewhere.md']],
  ];
  for (const [what, change, changed] of steps) {
    change();
    const made = history.commitFolder(what, new Date('2026-03-01T11:00:00Z'), changed);
    assert.ok(made.id, `${what}: committed`);
    assert.equal(repo('rev-parse', 'HEAD^{tree}').trim(), gitTree(), `${what}: git's own tree of the folder`);
  }
  // Only the named notes are read: a note changed behind the notebook's back waits for a full read.
  put('people/lena.md', 'Lena, edited by hand\n');
  put('people/anna.md', 'Anna, 38\n');
  history.commitFolder('anna', new Date('2026-03-01T12:00:00Z'), ['people/anna.md']);
  assert.equal(repo('show', 'HEAD:people/lena.md'), 'Lena\n', 'the unnamed note is as it was');
  assert.equal(repo('show', 'HEAD:people/anna.md'), 'Anna, 38\n');
  history.commitFolder('everything', new Date('2026-03-01T12:01:00Z'));
  assert.equal(repo('rev-parse', 'HEAD^{tree}').trim(), gitTree(), 'a commit naming no paths reads the whole folder');
  repo('fsck', '--strict', '--no-dangling');
});

test('the journal makes its folder at the first append, and again when the folder went away', () => {
  const dir = join(tempDir('mmb-nb-journal-'), 'agent', 'deep');
  const journal = new Journal(join(dir, 'journal.jsonl'));
  journal.append({ kind: 'time', iso: '2026-03-01T10:00:00.000Z' });
  rmSync(dirname(dir), { recursive: true });
  journal.append({ kind: 'time', iso: '2026-03-01T11:00:00.000Z' });
  assert.deepEqual(
    readFileSync(join(dir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { iso: string }).iso),
    ['2026-03-01T11:00:00.000Z'],
  );
});
