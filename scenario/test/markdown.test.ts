/**
 * The block reader against remark: `parseBlocks` reads micromark's events without building
 * remark's tree, and must give exactly the top-level blocks remark's tree has (kinds, lines,
 * offsets, heading depths, code languages, values and columns) on every markdown file of the
 * project, generated benchmarks and seeded random markdown made of the constructs that move
 * block boundaries (fences, indents, tabs, containers, setext underlines, HTML, CR and CRLF).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RootContent } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { generate } from '../../scripts/generate';
import { INLINE_CONSTRUCTS, parseBlocks, type Block } from '../src/markdown';
import { random } from './helpers';

const remark = unified()
  .use(remarkParse)
  .data('micromarkExtensions', [{ disable: { null: INLINE_CONSTRUCTS } }]);

/** The blocks as they were read from remark's tree. */
function remarkBlocks(text: string): Block[] {
  return (remark.parse(text).children as RootContent[]).flatMap((node): Block[] => {
    const pos = node.position;
    if (!pos) return [];
    const startLine = pos.start.line - 1;
    const endLine = pos.end.line - 1;
    if (node.type === 'heading')
      return [
        { kind: 'heading', depth: node.depth, startLine, endLine, startOffset: pos.start.offset ?? 0, endOffset: pos.end.offset ?? 0 },
      ];
    if (node.type === 'code') {
      const firstLine = text.slice(pos.start.offset ?? 0, (pos.start.offset ?? 0) + 3);
      return [
        {
          kind: 'code',
          lang: node.lang ?? '',
          value: node.value,
          startLine,
          endLine,
          fenced: firstLine === '```' || firstLine === '~~~',
          column: pos.start.column - 1,
        },
      ];
    }
    return [{ kind: node.type === 'html' ? 'html' : 'other', startLine, endLine }];
  });
}

const ROOT = join(__dirname, '..', '..');
const SKIP = new Set(['node_modules', '.git', 'dist', 'results', '.e2e', '.tools']);

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.venv')) continue;
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) markdownFiles(path, out);
    else if (stat?.isFile() && name.endsWith('.md')) out.push(path);
  }
  return out;
}

test('every markdown file of the project reads into the blocks remark finds', () => {
  const files = markdownFiles(ROOT);
  assert.ok(files.length > 50, `the project's markdown files are found (${files.length})`);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    assert.deepEqual(parseBlocks(text), remarkBlocks(text), file);
  }
});

test('a generated benchmark reads into the blocks remark finds', () => {
  for (const [name, text] of generate(20)) if (name.endsWith('.md')) assert.deepEqual(parseBlocks(text), remarkBlocks(text), name);
});

/** Pieces that start, end, nest or continue blocks. */
const PIECES = [
  '# Title',
  '## Phase 1',
  '## x ####',
  '#',
  '#no',
  '   ## indented',
  'Setext',
  '===',
  '---',
  '- - -',
  '***',
  'text',
  'more text *a*',
  '```',
  '```js',
  '```js {x}',
  '~~~',
  '~~~~',
  '````',
  '    code',
  '\tcode',
  '  \t mixed',
  '> quote',
  '> ```',
  '>',
  '- item',
  '1. item',
  '* ```',
  '  - nested',
  '10) x',
  '<div>',
  '</div>',
  '<!-- c -->',
  '<pre>',
  '</pre>',
  '[a]: /b',
  '[a]: /b "t"',
  '❓ 1.1 q? Correct answer: a',
  '🪤 trap',
  'family#1.1',
  '{{FUTURE:3:days}}',
  '',
  '',
  '',
  '   ',
  '\t',
];
const EOLS = ['\n', '\n', '\n', '\r\n', '\r'];

test('seeded random markdown reads into the blocks remark finds', () => {
  for (let seed = 1; seed <= 400; seed++) {
    const next = random(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    let text = '';
    for (let i = 0, n = 1 + Math.floor(next() * 40); i < n; i++) text += pick(PIECES) + pick(EOLS);
    if (next() < 0.5) text = text.slice(0, Math.floor(next() * text.length));
    assert.deepEqual(parseBlocks(text), remarkBlocks(text), `seed ${seed}: ${JSON.stringify(text)}`);
  }
});

test('no markdown at all, and hostile markdown, read without throwing', () => {
  assert.deepEqual(parseBlocks(''), []);
  assert.deepEqual(parseBlocks('\n\n\n'), []);
  for (const text of ['*a'.repeat(50_000), '['.repeat(50_000), '>'.repeat(20_000) + ' x', '- '.repeat(5_000) + 'x', '`'.repeat(10_000)]) {
    assert.deepEqual(parseBlocks(text), remarkBlocks(text));
  }
});
