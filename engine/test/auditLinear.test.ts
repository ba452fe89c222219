/**
 * `mmb check --audit` in linear time (issue #31, "At scale"): the stand-in persona's reading of her
 * conversation, `facts_mark_told`'s reading of the transcript and the rehearsal's record of the
 * facts are carried on from turn to turn instead of redone from the start. Nothing of what they
 * find may change: each incremental fold equals the fold from scratch on every prefix of a played
 * conversation, and a generated month's rehearsal (its persona's conversation, her grades, the
 * facts at each phase and grade) and its audit are the ones the quadratic code gave, pinned below.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { auditRehearsal } from '../src/audit/answerAudit';
import { rehearse, type Rehearsal } from '../src/audit/rehearsal';
import { generateBenchmark } from '../src/generate';
import { PRESETS } from '../src/generate/presets';
import { GrowingFold } from '../src/growingFold';
import type { ChatMessage } from '../src/protocol/chat';
import { factChanges, type FactChange } from '../src/standin/sheetHistory';
import { benchmarkFrom } from './helpers';

/** The month preset at seed 7: 1,471 persona messages, 42 checks graded; a rehearsal of about a second. */
const benchmark = benchmarkFrom(Object.fromEntries(generateBenchmark(PRESETS.month, 7).files), 'month-7');
let played: Promise<Rehearsal> | undefined;
const rehearsal = () => (played ??= rehearse(benchmark));

/** factChanges as it was written before it was made incremental: the whole conversation read from the start. */
function changesFromScratch(messages: readonly ChatMessage[]): FactChange[] {
  const known = new Map<string, string>();
  const sheetOfCall = new Map<string, string>();
  const changes: FactChange[] = [];
  const argument = (call: { function: { arguments: string } }, name: string): string => {
    try {
      const value = (JSON.parse(call.function.arguments) as Record<string, unknown>)[name];
      return typeof value === 'string' ? value : '';
    } catch {
      return '';
    }
  };
  for (const message of messages) {
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? []) {
        const sheet = argument(call, 'sheet');
        if (call.function.name === 'facts_read' || call.function.name === 'facts_get_untold') sheetOfCall.set(call.id, sheet);
        if (call.function.name !== 'facts_edit') continue;
        const key = `${sheet}#${argument(call, 'id')}`;
        const before = known.get(key);
        const after = argument(call, 'text');
        if (before !== undefined && after && before !== after) changes.push({ before, after });
        if (after) known.set(key, after);
      }
    const sheet = message.role === 'tool' ? sheetOfCall.get(message.tool_call_id) : undefined;
    if (message.role === 'tool' && sheet !== undefined)
      for (const m of message.content.matchAll(/^(\d+\.\d+) (.+?)(?: \(told\))?$/gm)) known.set(`${sheet}#${m[1]}`, m[2] ?? '');
  }
  return changes;
}

test('a growing fold equals the fold from scratch: on each longer list, on a list cut short, on one whose middle was replaced', () => {
  let steps = 0;
  const fold = new GrowingFold<{ n: number }, number[]>(
    () => [],
    (sum, item) => {
      steps++;
      sum.push(item.n);
    },
  );
  const items = Array.from({ length: 100 }, (_, n) => ({ n }));
  for (let length = 1; length <= items.length; length++) assert.deepEqual(fold.of(items.slice(0, length)), [...Array(length).keys()]);
  assert.equal(steps, 100, 'each item folded once as the list grew');
  assert.deepEqual(fold.of(items.slice(0, 10)), [...Array(10).keys()], 'a shorter list is folded afresh');
  // A compaction keeps the first message (the system prompt) and replaces the ones after it.
  const compacted = [items[0]!, { n: -1 }, ...items.slice(50)];
  assert.deepEqual(fold.of(compacted), [0, -1, ...items.slice(50).map((item) => item.n)]);
  assert.deepEqual(fold.of([]), []);
});

test("the persona's fact changes, carried on from turn to turn, equal the changes read from scratch at every turn", async () => {
  const { state } = await rehearsal();
  assert.equal(state.status, 'finished', state.error);
  const system: ChatMessage = { role: 'system', content: 'the system prompt' };
  const conversation = [system, ...state.persona];
  let compared = 0;
  for (let length = 1; length <= conversation.length; length++) {
    const messages = conversation.slice(0, length);
    const incremental = factChanges(messages);
    if (length % 7 !== 0 && length !== conversation.length) continue;
    assert.deepEqual(incremental, changesFromScratch(messages), `after ${length} messages`);
    compared++;
  }
  const all = changesFromScratch(conversation);
  assert.ok(all.length >= 10 && compared > 200, `${all.length} changes, ${compared} prefixes compared`);
  // What was handed out stays as it was when a later turn adds changes.
  const early = factChanges(conversation.slice(0, Math.floor(conversation.length / 2)));
  const kept = [...early];
  factChanges(conversation);
  assert.deepEqual(early, kept);
  // A conversation whose middle was compacted away is read afresh.
  const cut = [system, { role: 'user', content: 'a compaction note' } as ChatMessage, ...state.persona.slice(state.persona.length / 2)];
  assert.deepEqual(factChanges(cut), changesFromScratch(cut));
});

/** Each part of a rehearsal and its audit, without real time, hashed. */
function fingerprint(played: Rehearsal): Record<string, string> {
  const withoutTime = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'at' ? undefined : inner)));
  const entries = (map: ReadonlyMap<string, Iterable<unknown>>) => [...map].map(([key, values]) => [key, [...values]]);
  const parts = {
    audit: auditRehearsal(benchmark, played).map((d) => `${d.file}:${d.range.start.line + 1} ${d.code} ${d.message}`),
    grades: withoutTime(played.state.grades),
    persona: played.state.persona,
    transcript: played.state.transcript.map((entry) => `${entry.from}: ${entry.text}`),
    sheets: played.state.sheets,
    atPhaseStart: entries(played.atPhaseStart),
    atGrade: entries(played.atGrade),
    changedInPhase: entries(played.changedInPhase),
    lastText: [...played.lastText],
  };
  return Object.fromEntries(
    Object.entries(parts).map(([name, value]) => [name, createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16)]),
  );
}

test("a generated month's rehearsal and audit are the ones the quadratic code gave, part for part", async () => {
  const played = await rehearsal();
  assert.equal(played.state.persona.length, 1471);
  assert.equal(Object.keys(played.state.grades).length, 42);
  assert.deepEqual(fingerprint(played), PINNED);
});

/** Recorded with the code before this change (commit 22c791e), by the fingerprint above. */
const PINNED: Record<string, string> = {
  audit: '4f53cda18c2baa0c',
  grades: '9e1b4457b5f9f149',
  persona: '369675c74b753568',
  transcript: 'f03ea5af59dd01fa',
  sheets: '67ffa50b293ddb60',
  atPhaseStart: 'a5289f4923c3afe9',
  atGrade: '384635da2f8fbe8a',
  changedInPhase: '08120698fef462de',
  lastText: 'b2d9e73f46995808',
};
