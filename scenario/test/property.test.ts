/** The parser never throws and every range it returns lies inside its document, whatever the input. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { coverage, LineIndex, loadBenchmark, parseConfig, phaseInstructions, validateBenchmark, type Range } from '../src';

/** Fixed by default so CI is repeatable; FC_SEED and FC_RUNS explore further. */
const PARAMS = { seed: Number(process.env.FC_SEED ?? 20261129), numRuns: Number(process.env.FC_RUNS ?? 500) };

const STARTER = join(__dirname, '..', '..', 'benchmarks', 'starter');
const REAL = new Map(readdirSync(STARTER).map((f) => [f, readFileSync(join(STARTER, f), 'utf8')]));

const TOKENS = [
  '❓',
  '❓\uFE0F',
  '🪤',
  '## ',
  '# ',
  '### ',
  '\n',
  '\r\n',
  '\r',
  ' ',
  '     ',
  '\t',
  '```js\n',
  '```\n',
  '~~~',
  '{{',
  '}}',
  'FUTURE:3:weeks',
  'PAST:x:days',
  'TODAY',
  'move#1.2',
  'family#9.9',
  '`move`',
  '`profile` sheet',
  ' sheet',
  '→',
  '->',
  '—',
  '--',
  '1.1',
  '20.3',
  '3.1',
  '[RECALL]',
  '[HIST]',
  '[',
  ']',
  'Correct answer:',
  '08:00 — ',
  '7:5 - ',
  '2026-03-10, Tue',
  '2026-02-30',
  '<!--',
  '-->',
  'bench.',
  'await bench.newSession();',
  'vars.require_all_facts = ',
  '"',
  "'",
  '(',
  ')',
  ';',
  '{',
  '}',
  ',',
  ':',
  '\uD83E',
  '\uDEA4',
  'é',
  '𝔸',
  'RECONSIDER',
  'SELF-FIX',
  '1. ',
  '## 1. Cat',
  '—\n',
  'a',
  'Z',
  '0',
  '9',
  '.',
  '#',
];
const token = fc.constantFrom(...TOKENS);
const piece = fc.oneof(token, fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 }));
const LINE_STARTS = [
  '## ',
  '# ',
  '❓ 1.1 ',
  '❓ ',
  '🪤 STALE ',
  '🪤 ',
  '2026-03-10',
  '2026-03-10, Tue',
  '08:00 — ',
  '```js',
  '```',
  '1.1 ',
  '## 1. ',
  '     ',
  '',
  '<!--',
];
/** Text built line by line, each line opening with something the grammar looks for. */
const soup = fc
  .array(fc.tuple(fc.constantFrom(...LINE_STARTS), fc.array(piece, { maxLength: 8 })), { maxLength: 24 })
  .map((lines) => lines.map(([start, rest]) => start + rest.join('')).join('\n'));

/** A real file with random edits: inserts, deletions and replacements at random places. */
const mutated = fc
  .tuple(
    fc.constantFrom(...REAL.keys()),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 12 }), fc.oneof(token, fc.constant(''), fc.string({ maxLength: 3 }))), {
      minLength: 1,
      maxLength: 8,
    }),
  )
  .map(([file, edits]) => {
    let text = REAL.get(file) ?? '';
    for (const [at, del, insert] of edits) {
      const i = text.length ? at % (text.length + 1) : 0;
      text = text.slice(0, i) + insert + text.slice(i + del);
    }
    return { file, text };
  });

/** Every `{ start, end }` range anywhere in a value, with the path to it. */
function ranges(value: unknown, path = '', out: { path: string; range: Range }[] = [], seen = new Set<unknown>()): typeof out {
  if (!value || typeof value !== 'object' || seen.has(value) || value instanceof LineIndex) return out;
  seen.add(value);
  const v = value as Record<string, unknown>;
  if (isRange(v)) out.push({ path, range: v as unknown as Range });
  for (const [k, child] of value instanceof Map ? value.entries() : Object.entries(v)) ranges(child, `${path}.${String(k)}`, out, seen);
  return out;
}

function isRange(v: Record<string, unknown>): boolean {
  const s = v.start as Record<string, unknown> | undefined;
  return !!s && typeof s === 'object' && typeof s.line === 'number' && typeof s.character === 'number' && typeof v.end === 'object';
}

/** The last text's line index: the hostile inputs below give thousands of ranges in one huge text. */
let indexed: { text: string; index: LineIndex } | undefined;

function assertInside(text: string, r: Range, where: string): void {
  if (indexed?.text !== text) indexed = { text, index: new LineIndex(text) };
  const idx = indexed.index;
  for (const p of [r.start, r.end]) {
    assert.ok(
      Number.isInteger(p.line) && p.line >= 0 && p.line < idx.lineCount,
      `${where}: line ${p.line} outside 0..${idx.lineCount - 1}`,
    );
    assert.ok(
      Number.isInteger(p.character) && p.character >= 0 && p.character <= idx.lineText(p.line).length,
      `${where}: column ${p.character} past the end of line ${p.line} (${idx.lineText(p.line).length})`,
    );
  }
  assert.ok(
    r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character),
    `${where}: range ends before it starts`,
  );
}

/** Puts `text` in place of `file` in the starter benchmark and runs everything over it. */
function runAll(file: string, text: string): void {
  const files = new Map(REAL);
  files.set(file, text);
  const b = loadBenchmark({ name: 'starter', files });
  const diagnostics = validateBenchmark(b);
  coverage(b);
  for (const c of b.chapters) for (const p of c.phases) phaseInstructions(c, p);
  for (const d of diagnostics) {
    assertInside(files.get(d.file) ?? '', d.range, `${d.code} in ${d.file}`);
    for (const r of d.related ?? []) assertInside(files.get(r.file) ?? '', r.range, `related of ${d.code}`);
  }
  for (const c of b.chapters)
    for (const { path, range } of ranges(c.phases)) assertInside(files.get(c.file) ?? '', range, `${c.file}${path}`);
  for (const s of b.sheets.values())
    for (const { path, range } of ranges(s.facts.concat() as unknown[]).concat(ranges(s.categories)))
      assertInside(files.get(s.file) ?? '', range, `${s.file}${path}`);
}

test('random text as a chapter, a sheet, the manifest or the config never breaks the parser', () => {
  fc.assert(
    fc.property(soup, fc.constantFrom('chapter2.md', 'move.md', 'benchmark.json', 'profile.md'), (text, file) => {
      runAll(file, text);
      for (const d of parseConfig(text).diagnostics) assertInside(text, d.range, `config ${d.code}`);
    }),
    PARAMS,
  );
});

test('real benchmark files with random edits never break the parser', () => {
  fc.assert(
    fc.property(mutated, ({ file, text }) => runAll(file, text)),
    PARAMS,
  );
});

/** Inputs that once overflowed the stack, took quadratic time or came out wrong, by the file they go in. */
const HOSTILE: [string, string][] = [
  ['benchmark.json', '['.repeat(200_000)],
  ['benchmark.json', '{"a":'.repeat(200_000)],
  ['benchmark.json', `{ "chapters": [${Array.from({ length: 5_000 }, (_, i) => `"c${i % 10_000}.md"`).join(',')}] }`],
  ['benchmark.json', ','.repeat(300_000)],
  ['benchmark.json', '\uFEFF{ "chapters": [] }'],
  ['chapter2.md', `## P\n${'a'.repeat(5_000_000)}`],
  ['chapter2.md', `## P\n${'> '.repeat(5_000)}x`],
  ['chapter2.md', `## P\n${'- '.repeat(5_000)}x`],
  ['chapter2.md', `## P\n${'*a'.repeat(4_000)}\n`.repeat(20)],
  ['chapter2.md', `## P\n${'[a]('.repeat(2_000)}\n<${'<'.repeat(9_000)}`],
  ['chapter2.md', Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}- item`).join('\n')],
  ['chapter2.md', Array.from({ length: 5_000 }, (_, i) => `## Phase ${i}\nTell the \`move\` sheet.`).join('\n')],
  ['chapter2.md', `## P\n${'❓ 1.1 q? Correct answer: a\n'.repeat(5_000)}`],
  ['chapter2.md', `## P\n❓ 1.1 q? Correct answer: a\n${'🪤 STALE move#1.1 → 1.1\n'.repeat(5_000)}`],
  ['chapter2.md', `## P\n${Array.from({ length: 5_000 }, (_, i) => `move#9.${i} nowhere#1.${i}`).join('\n')}`],
  ['chapter2.md', `## P\n\`\`\`js\n${'('.repeat(9_000)}\n\`\`\`\n`],
  ['chapter2.md', `## P\n\`\`\`js\n${'a.b'.repeat(6_000)}\n\`\`\`\n`],
  ['chapter2.md', `## P\n\`\`\`js\n${'!'.repeat(50_000)}x\n\`\`\`\n`],
  ['chapter2.md', '## P\n{{FUTURE:99999999999999999999999:years}} {{PAST:120001:months}} {{FUTURE:10000:years}}'],
  ['chapter2.md', `\uFEFF${REAL.get('chapter2.md') ?? ''}`],
  ['move.md', `# Move\n\n${'## 1. Cat\n1.1 x\n'.repeat(5_000)}`],
  ['move.md', `# Move\n\n## 1. Cat\n${'1.1 x\n'.repeat(5_000)}`],
  // 160,000 diagnostics in one file: once pushed with a spread, which overflows the stack.
  ['chapter2.md', `## P\n${`${'{{x}}'.repeat(2_000)}\n`.repeat(80)}`],
  ['move.md', `\uFEFF${REAL.get('move.md') ?? ''}`],
];

test('hostile inputs (deep nesting, huge lines, many phases and duplicates, BOMs, absurd templates) never break the parser', () => {
  for (const [file, text] of HOSTILE) {
    assert.doesNotThrow(() => runAll(file, text), `${file}: ${text.slice(0, 40)}`);
    for (const d of parseConfig(text).diagnostics) assertInside(text, d.range, `config ${d.code}`);
  }
});

test('the hostile inputs come out as the diagnostics that say what is wrong', () => {
  const codes = (file: string, text: string) => {
    const files = new Map(REAL);
    files.set(file, text);
    return new Set(
      validateBenchmark(loadBenchmark({ name: 'starter', files }))
        .filter((d) => d.file === file)
        .map((d) => d.code),
    );
  };
  assert.ok(codes('benchmark.json', '['.repeat(200_000)).has('invalid-manifest'));
  assert.ok(codes('chapter2.md', `## P\n${'a'.repeat(5_000_000)}`).has('over-limit'));
  assert.ok(codes('chapter2.md', `## P\n${'> '.repeat(5_000)}x`).has('over-limit'));
  assert.ok(codes('chapter2.md', `## P\n\`\`\`js\n${'(\n'.repeat(15_000)}\n\`\`\`\n`).has('js-syntax-error'));
  assert.ok(codes('chapter2.md', `## P\n\`\`\`js\n${'('.repeat(4_500)}1${')'.repeat(4_500)}\n\`\`\`\n`).has('js-syntax-error'));
  assert.ok(codes('chapter2.md', '## P\n{{FUTURE:99999999999999999999999:years}}').has('malformed-template'));
  assert.ok(!codes('chapter2.md', '## P\nTell the `move` sheet. {{FUTURE:10000:years}}').has('malformed-template'));
  assert.deepEqual([...codes('move.md', `\uFEFF${REAL.get('move.md') ?? ''}`)], [...codes('move.md', REAL.get('move.md') ?? '')]);
  const proto = loadBenchmark({ name: 'starter', files: new Map([...REAL, ['__proto__.md', '# P\n'], ['toString.md', '# T\n']]) });
  assert.deepEqual(
    proto.diagnostics
      .filter((d) => d.code === 'unsafe-file')
      .map((d) => d.file)
      .sort(),
    ['__proto__.md', 'toString.md'],
  );
  assert.equal(Object.getPrototypeOf(Object.fromEntries(proto.sheets)), Object.prototype);
});

test('a file the reader refused is one unsafe-file error and otherwise absent', () => {
  const refused = new Map([['chapter2.md', 'it is a symbolic link that leads out of the benchmark folder']]);
  const files = new Map(REAL);
  files.delete('chapter2.md');
  const diagnostics = validateBenchmark(loadBenchmark({ name: 'starter', files, refused }));
  const mine = diagnostics.filter((d) => d.file === 'chapter2.md' || d.code === 'missing-chapter');
  assert.deepEqual(
    mine.map((d) => `${d.file} ${d.code} ${d.severity}`),
    ['chapter2.md unsafe-file error'],
  );
  assert.match(mine[0]?.message ?? '', /^`chapter2\.md` is not read: it is a symbolic link that leads out of the benchmark folder\./);
});
