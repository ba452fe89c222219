/**
 * The shipped grading sets (`benchmarks/<name>/grading.jsonl`) and their reader: every item's check is
 * its benchmark's, as the project's own parser reads it; the set is big enough and covers every kind
 * of answer; a malformed line is one error with its file and line and never hides the lines after it.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { comparePlay, loadBenchmark, type Benchmark } from '../../scenario/src';
import { findBenchmarkFolders, readBenchmarkFolder } from '../src/workspace/folders';
import {
  GRADING_SET_FILE,
  MAX_GRADING_ITEMS,
  MAX_GRADING_LINE_CHARS,
  parseGradingSet,
  readGradingSet,
  readGradingSets,
  gradingSetErrorText,
} from '../src/judge/gradingSet';
import { checkMismatch, gradingSetDiagnostics } from '../src/judge/gradingSetCheck';
import { runCheck } from '../src/cli/check';
import { ANSWER_KIND_NAMES, type GradingItem } from '../src/judge/item';
import { ROOT } from './helpers';

const SHIPPED = ['filing', 'max', 'multiday', 'starter'];
const folders = findBenchmarkFolders(ROOT);
const benchmarks = new Map<string, Benchmark>(folders.map((dir) => [basename(dir), loadBenchmark(readBenchmarkFolder(dir))]));
const shipped = readGradingSets(folders);

test('the shipped sets read without an error, one set beside each bundled benchmark', () => {
  assert.deepEqual(shipped.errors.map(gradingSetErrorText), []);
  assert.deepEqual([...new Set(shipped.items.map((item) => item.benchmark))].sort(), SHIPPED);
  for (const item of shipped.items) assert.equal(basename(join(item.file!, '..')), item.benchmark, item.key);
});

test('the shipped sets hold at least 300 items, at least 15 of each kind, each key once', () => {
  assert.ok(shipped.items.length >= 300, `${shipped.items.length} items`);
  for (const kind of ANSWER_KIND_NAMES) {
    const count = shipped.items.filter((item) => item.kind === kind).length;
    assert.ok(count >= 15, `${kind}: ${count} items`);
  }
  const lines = SHIPPED.flatMap((name) =>
    readFileSync(join(ROOT, 'benchmarks', name, GRADING_SET_FILE), 'utf8')
      .split('\n')
      .filter((line) => line.trim()),
  );
  const keys = lines.map((line) => (JSON.parse(line) as GradingItem).key);
  assert.equal(new Set(keys).size, keys.length, 'no key twice, within a set or across sets');
  assert.equal(shipped.items.length, lines.length);
});

test("every item's check is its benchmark's: the id exists, the question, correct answer and type are the benchmark's own", () => {
  for (const item of shipped.items) {
    const benchmark = benchmarks.get(item.benchmark)!;
    const located = benchmark.checks.find((entry) => entry.check.id === item.check.id);
    assert.ok(located, `${item.key}: check ${item.check.id} is in ${item.benchmark}`);
    assert.equal(item.check.question, located.check.question, item.key);
    assert.equal(item.check.answer, located.check.answer, item.key);
    assert.equal(item.check.type, located.check.type, item.key);
    assert.equal(checkMismatch(item, located), undefined);
  }
});

test('`stale` is given only to checks asked after a trap, and the same for every item of one check', () => {
  const byCheck = new Map<string, string | undefined>();
  for (const item of shipped.items) {
    const id = `${item.benchmark}/${item.check.id}`;
    const stale = item.check.stale ? JSON.stringify(item.check.stale) : undefined;
    if (byCheck.has(id)) assert.equal(stale, byCheck.get(id), `${item.key}: the same stale values as the other items of ${id}`);
    byCheck.set(id, stale);
    if (!item.check.stale) continue;
    const benchmark = benchmarks.get(item.benchmark)!;
    const asked = benchmark.checks.find((entry) => entry.check.id === item.check.id)!;
    assert.ok(
      benchmark.traps.some((trap) => comparePlay(trap, asked) < 0),
      `${item.key}: a trap is played before check ${item.check.id}, so a value can be out of date`,
    );
  }
});

test('the gold scores follow the rules where a kind decides them alone, and each kind is on a check it fits', () => {
  const scoredAs: Partial<Record<string, number>> = { exact: 10, 'void-correct': 10, 'void-invented': 0, 'denied-told': 0, empty: 0 };
  for (const item of shipped.items) {
    const isVoid = item.check.type === 'VOID';
    if (item.kind in scoredAs) assert.equal(item.gold, scoredAs[item.kind], `${item.key}: ${item.rationale}`);
    if (item.kind.startsWith('void-')) assert.ok(isVoid, `${item.key}: a void kind on a VOID check`);
    if (item.kind === 'denied-told' || item.kind.startsWith('stale') || item.kind === 'second-attempt')
      assert.ok(!isVoid, `${item.key}: ${item.kind} on a check that was told`);
    if (item.kind.startsWith('stale') && item.kind !== 'stale') assert.ok(item.check.stale, `${item.key}: stale values named`);
    assert.equal(item.attempt, item.kind === 'second-attempt' ? 2 : 1, `${item.key}: only a second attempt is attempt 2`);
  }
});

test('the benchmark folder reader leaves grading.jsonl alone, and `mmb check` finds nothing wrong with the shipped sets', () => {
  for (const dir of folders) {
    assert.ok(!readBenchmarkFolder(dir).files.has(GRADING_SET_FILE));
    assert.deepEqual(gradingSetDiagnostics(dir, benchmarks.get(basename(dir))!), []);
  }
});

const GOOD = readFileSync(join(ROOT, 'benchmarks', 'starter', GRADING_SET_FILE), 'utf8')
  .split('\n')
  .filter(Boolean);
const good = (index: number, change: (item: Record<string, unknown>) => void = () => {}): string => {
  const item = JSON.parse(GOOD[index]!) as Record<string, unknown>;
  change(item);
  return JSON.stringify(item);
};

/** Each malformed line, and the start of the one error it must give. */
const MALFORMED: [string, string, RegExp][] = [
  ['bad JSON', '{"key": "x", ', /is not valid JSON .*write each item as one JSON object/],
  ['a missing field', good(1, (item) => delete item.gold), /`gold` is missing: add the score/],
  ['a wrong kind', good(2, (item) => (item.kind = 'nearly-right')), /`kind` is "nearly-right": use one of "exact", /],
  ['a score of 11', good(3, (item) => (item.gold = 11)), /`gold` is 11: give a number from 0 to 10/],
  ['a huge line', good(4, (item) => (item.answer = 'x'.repeat(MAX_GRADING_LINE_CHARS))), /the line is [\d,]+ characters, over the 16,000/],
  ['an unknown field', good(5, (item) => (item.score = 3)), /a field "score" that a grading item does not know: remove it/],
  ['a check without its answer', good(6, (item) => delete (item.check as Record<string, unknown>).answer), /`check.answer` is missing/],
  ['an attempt of 3', good(7, (item) => (item.attempt = 3)), /`attempt` is 3: use one of 1, 2/],
  ['a key with a line break', good(8, (item) => (item.key = 'a\nb')), /`key` is "a\\nb": use letters, digits/],
  ['not an object', '[1, 2]', /the line is a list, not an object/],
  [
    'another benchmark',
    good(9, (item) => (item.benchmark = 'max')),
    /`benchmark` is "max", but the set lies in the folder of benchmark "starter"/,
  ],
];

test('each malformed line is one error at its file and line, and the good lines around it are all read', () => {
  const lines: string[] = [];
  const expected: { line: number; pattern: RegExp; name: string }[] = [];
  MALFORMED.forEach(([name, text, pattern], index) => {
    lines.push(good(10 + index, (item) => (item.key = `good-${index}`)));
    lines.push(text);
    expected.push({ line: lines.length, pattern, name });
  });
  lines.push(good(30, (item) => (item.key = 'good-last')));
  const read = parseGradingSet(`${lines.join('\n')}\n`, 'starter/grading.jsonl', 'starter');
  assert.equal(read.errors.length, MALFORMED.length, read.errors.map(gradingSetErrorText).join('\n'));
  for (const [index, { line, pattern, name }] of expected.entries()) {
    const error = read.errors[index]!;
    assert.equal(`${error.file}:${error.line}`, `starter/grading.jsonl:${line}`, name);
    assert.match(error.message, pattern, name);
    assert.ok(gradingSetErrorText(error).length < 400, `${name}: the error is one short line`);
  }
  assert.deepEqual(
    read.items.map((item) => item.key),
    [...MALFORMED.map((_, index) => `good-${index}`), 'good-last'],
  );
  assert.equal(read.items[0]!.line, 1);
});

test('a set on disk: a key twice is an error at its second line, a link out of the folder is refused, no set is no error', () => {
  const root = mkdtempSync(join(tmpdir(), 'mmb-grading-'));
  const dir = join(root, 'starter');
  mkdirSync(dir);
  assert.deepEqual(readGradingSet(dir), { items: [], errors: [] });
  writeFileSync(join(dir, GRADING_SET_FILE), `${GOOD[0]}\n\n${GOOD[1]}\r\n${GOOD[0]}\n`);
  const twice = readGradingSets([dir]);
  assert.equal(twice.items.length, 2);
  const file = join(dir, GRADING_SET_FILE);
  assert.deepEqual(twice.errors.map(gradingSetErrorText), [
    `${file}:4: the key "starter/3.1/exact" is the key of ${file}:1 already: give each item its own key`,
  ]);
  const outside = join(root, 'elsewhere.jsonl');
  writeFileSync(outside, `${GOOD[0]}\n`);
  const linked = join(root, 'linked');
  mkdirSync(linked);
  symlinkSync(outside, join(linked, GRADING_SET_FILE));
  const refused = readGradingSet(linked);
  assert.deepEqual(refused.items, []);
  assert.match(
    gradingSetErrorText(refused.errors[0]!),
    /grading\.jsonl:1: the set is not read: it is a symbolic link that leads out of its folder/,
  );
});

test("`mmb check` lists a set's errors with the benchmark's own, each at its file and line", () => {
  const root = mkdtempSync(join(tmpdir(), 'mmb-grading-check-'));
  const dir = join(root, 'starter');
  cpSync(join(ROOT, 'benchmarks', 'starter'), dir, { recursive: true });
  const moved = good(1, (item) => ((item.check as Record<string, unknown>).answer = 'Leeds Lift, £350.'));
  const unknown = good(2, (item) => ((item.check as Record<string, unknown>).id = '9.9'));
  writeFileSync(join(dir, GRADING_SET_FILE), [GOOD[0], moved, '{"key": ', unknown, ''].join('\n'));
  writeFileSync(join(dir, 'chapter9.md'), '# Chapter 9\n');
  let output = '';
  const code = runCheck({ targets: ['starter'], json: false, coverage: false, cwd: root }, (text) => (output += text));
  assert.equal(code, 1);
  const lines = output.split('\n').filter((line) => line.startsWith('starter/'));
  assert.deepEqual(
    lines.map((line) => line.split(' ').slice(0, 3).join(' ')),
    [
      'starter/chapter9.md:1:1 warning unlisted-chapter',
      'starter/grading.jsonl:2:1 error grading-check-mismatch',
      'starter/grading.jsonl:3:1 error invalid-grading-item',
      'starter/grading.jsonl:4:1 error grading-check-mismatch',
    ],
  );
  assert.match(lines[1]!, /check "3\.2"'s `answer` is not the benchmark's \(chapter3\.md:\d+ has "Leeds Lift, £340\."\): copy it/);
  assert.match(lines[3]!, /check "9\.9" is not in this benchmark/);
});

test('a set past the item cap: one error at the first line over it, and nothing after it is read', () => {
  const lines = Array.from({ length: MAX_GRADING_ITEMS + 2 }, (_, index) => good(0, (item) => (item.key = `k${index}`)));
  const read = parseGradingSet(lines.join('\n'), 'big.jsonl', 'starter');
  assert.equal(read.items.length, MAX_GRADING_ITEMS);
  assert.deepEqual(read.errors.map(gradingSetErrorText), [
    `big.jsonl:${MAX_GRADING_ITEMS + 1}: the set has more than 5,000 items: the lines from here on are not read; split it`,
  ]);
});
