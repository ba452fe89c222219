/**
 * The conversation panel's checks (issue #33 item 6): red only for a failure counted against the agent,
 * grey for a partial run's failure at a check whose trap writes it did not play, amber for a fair score
 * that counts; and the webview's script and style draw the tone, not the band.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBenchmark } from '../../scenario/src';
import { readBenchmarkFolder, type Grade, type PhaseRange, type Position } from '../../engine/src/api';
import { ROOT, STARTER } from '../../engine/test/helpers';
import { panelChecks, type GradedState } from '../src/panelChecks';

const starter = () => loadBenchmark(readBenchmarkFolder(STARTER));
const exam: Position = { chapter: 'chapter3.md', chapterIndex: 2, phase: 0 };

function grade(effective: number): Grade[] {
  return [{ score: effective, effective, attempt: 1, answer: 'no idea', comment: 'wrong', at: '2026-07-29T16:20:00.000Z', position: exam }];
}

function state(scores: Record<string, number>, phases?: PhaseRange): GradedState {
  return {
    run: phases ? 'starter.phase-chapter3-1' : 'notes',
    grades: Object.fromEntries(Object.entries(scores).map(([id, score]) => [id, grade(score)])),
    templates: {},
    startTime: '2026-07-29 16:10',
    ...(phases ? { phases } : {}),
  };
}

const tones = (checks: ReturnType<typeof panelChecks>) => checks.map((c) => `${c.id}:${c.band}:${c.tone}`);

test('a full run: the failures counted, red (poor) and amber (fair), a pass green', () => {
  const checks = panelChecks(state({ '3.1': 9, '3.2': 2, '3.3': 5 }), starter(), 8);
  assert.deepEqual(tones(checks), ['3.1:good:good', '3.2:poor:poor', '3.3:fair:fair']);
  assert.ok(checks.every((c) => c.notCounted === undefined));
});

test("a partial rehearsal of the exam: its failures are muted with the editor's reason, its pass stays green", () => {
  const checks = panelChecks(state({ '3.2': 2, '3.3': 5, '3.4': 10 }, { from: exam, to: exam }), starter(), 8);
  assert.deepEqual(tones(checks), ['3.2:poor:muted', '3.3:fair:muted', '3.4:good:good']);
  assert.equal(
    checks[0]!.notCounted,
    'Not counted against the agent: the run did not play the trap write aimed at this check (chapter2.md:12).',
  );
});

test('the webview draws the tone: panel.js classes a card by it, panel.css greys the muted one', () => {
  const script = readFileSync(join(ROOT, 'media', 'panel.js'), 'utf8');
  assert.match(script, /el\('div', \{ class: `check \$\{c\.tone\}`, 'data-check': c\.id \}/);
  const style = readFileSync(join(ROOT, 'media', 'panel.css'), 'utf8');
  const muted = /\.check\.muted \{([^}]*)\}/.exec(style)?.[1] ?? '';
  assert.match(muted, /--vscode-disabledForeground/);
  assert.doesNotMatch(muted, /iconFailed|errorForeground|red|yellow/);
});
