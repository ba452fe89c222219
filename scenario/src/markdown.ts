import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { RootContent } from 'mdast';

/** A top-level block of a markdown document, as remark sees it, located by 0-based lines. */
export type Block =
  | { kind: 'heading'; depth: number; startLine: number; endLine: number; startOffset: number; endOffset: number }
  | { kind: 'code'; lang: string; value: string; startLine: number; endLine: number; fenced: boolean; column: number }
  | { kind: 'html'; startLine: number; endLine: number }
  | { kind: 'other'; startLine: number; endLine: number };

/**
 * Inline markdown (emphasis, links, code spans, escapes) never changes where blocks start and
 * end, and its resolution is quadratic on hostile input (`*a*a*a…`, `[[[…`), so it is switched
 * off: the parser only ever needs the top-level blocks.
 */
const INLINE_CONSTRUCTS = ['attention', 'autolink', 'characterEscape', 'characterReference', 'codeText', 'hardBreakEscape', 'htmlText', 'labelEnd', 'labelStartImage', 'labelStartLink'];
const processor = unified().use(remarkParse).data('micromarkExtensions', [{ disable: { null: INLINE_CONSTRUCTS } }]);

/** Parses markdown into its top-level blocks. Never throws: on a parser fault it returns none. */
export function parseBlocks(text: string): Block[] {
  let children: RootContent[];
  try {
    children = processor.parse(text).children;
  } catch {
    return [];
  }
  const blocks: Block[] = [];
  for (const node of children) {
    const pos = node.position;
    if (!pos) continue;
    const startLine = pos.start.line - 1;
    const endLine = pos.end.line - 1;
    if (node.type === 'heading') {
      blocks.push({
        kind: 'heading',
        depth: node.depth,
        startLine,
        endLine,
        startOffset: pos.start.offset ?? 0,
        endOffset: pos.end.offset ?? 0,
      });
    } else if (node.type === 'code') {
      const firstLine = text.slice(pos.start.offset ?? 0, (pos.start.offset ?? 0) + 3);
      blocks.push({
        kind: 'code',
        lang: node.lang ?? '',
        value: node.value,
        startLine,
        endLine,
        fenced: firstLine === '```' || firstLine === '~~~',
        column: pos.start.column - 1,
      });
    } else if (node.type === 'html') {
      blocks.push({ kind: 'html', startLine, endLine });
    } else {
      blocks.push({ kind: 'other', startLine, endLine });
    }
  }
  return blocks;
}

/** The heading's text without its `#` marks (ATX) or underline (setext). */
export function headingText(text: string, block: Extract<Block, { kind: 'heading' }>): string {
  const raw = text.slice(block.startOffset, block.endOffset);
  const firstLine = raw.split(/\r?\n|\r/)[0] ?? '';
  if (/^ {0,3}#/.test(firstLine)) {
    return firstLine.replace(/^ {0,3}#+[ \t]*/, '').replace(/[ \t]+#+[ \t]*$/, '').replace(/^#+$/, '').trim();
  }
  return firstLine.trim();
}
