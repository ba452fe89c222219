/**
 * The reports as text: a report.md entry as VS Code's preview renders it (markdown-it, the
 * renderer of VS Code's preview, with GitHub's tables), hostile text included; and `mmb report`
 * through the built CLI: every run with its true status, in columns that fit the width.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { reportEntry } from '../src/report/markdown';
import type { Summary } from '../src/report/summary';
import { textWidth } from '../src/cli/textWidth';
import { processStartTime } from '../src/workspace/lock';
import { CLI, REPORTS, tempDir, joinedPattern } from './helpers';

type MarkdownIt = new (options?: { html?: boolean }) => { render(text: string): string };
const MarkdownIt = createRequire(__filename)('markdown-it') as MarkdownIt;

const hostile = 'x | y\n## forged\n- item [link](javascript:alert(1)) ![i](http://tracker/x.png) <img src=x> `code` \\';

function summary(run: string): Summary {
  const answer = (id: string, got: string) => ({
    id,
    question: `Question ${id} | with a pipe?`,
    expected: hostile,
    got,
    comment: hostile,
    score: 3.3,
    attempt: 2 as const,
    file: 'chapter3.md',
    line: 5,
  });
  return {
    run,
    benchmark: 'starter',
    agent: 'chatbot',
    status: 'crashed',
    error: hostile,
    startedAt: '2026-01-01T00:00:00Z',
    runTimeMinutes: 0,
    runTimeSeconds: 2,
    evaluations: 2,
    average: 1.65,
    scores: [[3.3, 2]],
    coverage: { graded: 2, planned: 3, missing: ['3.5'] },
    imperfect: [answer('3.1', hostile), answer('3.2', 'plain')],
    compactions: null,
    agentCompactions: [],
    personaCompactions: [],
    misbehaviours: {},
    hooks: {},
    skippedHours: 0,
    sessionSwitches: 1,
    unanswered: 0,
    retries: 0,
    usage: {},
    partial: { from: 'chapter3.md:1', to: 'chapter3.md:1', filter: 'HIST' },
  };
}

test('a report.md entry renders as a heading, a list and a table, and no text in it makes an element of its own', () => {
  const text = `${reportEntry(summary('one'), new Date(2026, 0, 1, 9, 5))}\n${reportEntry(summary('two'), new Date(2026, 0, 1, 9, 6))}`;
  for (const html of [new MarkdownIt().render(text), new MarkdownIt({ html: true }).render(text)]) {
    assert.deepEqual(html.match(/<h2>[^<]*<\/h2>/g), [
      '<h2>2026-01-01 09:05 — one: starter @ chatbot (crashed)</h2>',
      '<h2>2026-01-01 09:06 — two: starter @ chatbot (crashed)</h2>',
    ]);
    assert.equal(html.match(/<ul>/g)?.length, 2, 'one list per entry');
    assert.equal(
      html.match(/<li>/g)?.length,
      2 * 7,
      'each figure an item (crash, partial, evaluations, scores, coverage, compactions, run time), and none forged',
    );
    assert.equal(html.match(/<table>/g)?.length, 2, 'one table per entry');
    const rows = html.match(/<tr>[\s\S]*?<\/tr>/g) ?? [];
    assert.equal(rows.length, 2 * 3, 'a head and a row per imperfect answer');
    for (const row of rows) assert.equal(row.match(/<t[dh]>/g)?.length, 6, `six cells, whatever the pipes in the text: ${row}`);
    assert.doesNotMatch(html, /<(a|img|code|h1|h3|script)\b/, 'no link, image, code span or markup from the text');
    assert.match(html, /<td>Question 3\.1 \| with a pipe\?<\/td>/, 'a pipe in a cell is text');
    assert.match(
      html,
      joinedPattern([
        /<li>💥 Crashed: x \| y ## forged - item \[link\]\(javascript:alert\(1\)\) /,
        /!\[i\]\(http:\/\/tracker\/x\.png\) &lt;img src=x&gt; `code` \\<\/li>/,
      ]),
    );
    assert.match(html, /<li>🧩 Partial run: chapter3\.md:1 to chapter3\.md:1, filter HIST<\/li>/);
  }
});

function mmb(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, COLUMNS: '', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('mmb report lists every run with its true status (running, stopped, crashed, finished) in columns cut to the width', () => {
  const dir = tempDir('mmb-list-');
  cpSync(join(REPORTS, 'benchmarks'), join(dir, 'benchmarks'), { recursive: true });
  cpSync(join(REPORTS, 'runs'), join(dir, 'results'), { recursive: true });
  const edit = (id: string, change: (state: Record<string, unknown>) => void) => {
    const file = join(dir, 'results', id, 'state.json');
    const state = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    change(state);
    writeFileSync(file, JSON.stringify(state));
  };
  // Stopped: the state says running, and no engine holds its lock (Ctrl-C, a kill).
  edit('chatbot-2', (state) => {
    state.status = 'running';
    delete state.finishedAt;
  });
  // Running: this very process holds the lock, as an engine would.
  edit('chatbot-3', (state) => {
    state.status = 'running';
    delete state.finishedAt;
  });
  writeFileSync(
    join(dir, 'results', 'chatbot-3', 'run.lock'),
    JSON.stringify({ pid: process.pid, since: new Date().toISOString(), started: processStartTime(process.pid) }),
  );
  edit('in-context', (state) => {
    state.status = 'crashed';
    state.error = 'boom';
  });
  const long = 'a-run-with-a-name-much-longer-than-any-terminal-column-should-hold-whole';
  cpSync(join(dir, 'results', 'chatbot-1'), join(dir, 'results', long), { recursive: true });
  const whole = mmb(['report'], dir);
  assert.equal(whole.code, 0, whole.stderr);
  assert.equal(whole.stderr, '');
  mkdirSync(join(dir, 'results', 'broken'));
  writeFileSync(join(dir, 'results', 'broken', 'state.json'), '{ cut');
  const damaged = mmb(['report'], dir);
  assert.equal(damaged.code, 0, damaged.stderr);
  assert.match(damaged.stderr, /^mmb: damaged: results\/broken\/state\.json: not JSON .*--restart.*\n$/);
  assert.match(damaged.stdout, /^broken +— +— +damaged +— +—$/m, 'a damaged run is listed, and hides none of the others');
  assert.match(damaged.stdout, /^chatbot-1 +multiday/m);
  rmSync(join(dir, 'results', 'broken'), { recursive: true });
  const status = (text: string, id: string) => new RegExp(`^${id} +multiday +chatbot +(\\S+) `, 'm').exec(text)?.[1];
  assert.deepEqual(
    ['chatbot-1', 'chatbot-2', 'chatbot-3', 'in-context'].map((id) => status(whole.stdout, id)),
    ['finished', 'stopped', 'running', 'crashed'],
  );
  assert.match(whole.stdout, new RegExp(`^${long} +multiday`, 'm'), 'off a terminal with no COLUMNS, ids stay whole');
  const narrow = mmb(['report'], dir, { COLUMNS: '72' });
  const lines = narrow.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 8, 'the header, five runs, and below them why the crashed one crashed');
  assert.equal(lines.at(-1), 'in-context crashed: boom');
  for (const line of lines) assert.ok(textWidth(line) <= 72, `fits 72 columns: ${line}`);
  assert.match(
    narrow.stdout,
    /^a-run-with-a-name-much… {2}multiday +chatbot +finished +2\.00 +10\/10$/m,
    'the long id cut, the other columns whole',
  );
  assert.match(narrow.stdout, /^chatbot-2 +multiday +chatbot +stopped +2\.40 +10\/10$/m);
});
