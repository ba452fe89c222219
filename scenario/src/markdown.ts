/** Markdown split into its top-level blocks by micromark, located by 0-based lines: the parser's first step. */
import { parse, postprocess, preprocess } from 'micromark';
import type { Event, Token } from 'micromark-util-types';

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
export const INLINE_CONSTRUCTS = [
  'attention',
  'autolink',
  'characterEscape',
  'characterReference',
  'codeText',
  'hardBreakEscape',
  'htmlText',
  'labelEnd',
  'labelStartImage',
  'labelStartLink',
];
const EXTENSIONS = [{ disable: { null: INLINE_CONSTRUCTS } }];

/** The micromark tokens that make a top-level mdast node (remark's), by the kind of block they are. */
const TOP_LEVEL: Record<string, Block['kind']> = {
  atxHeading: 'heading',
  setextHeading: 'heading',
  codeFenced: 'code',
  codeIndented: 'code',
  htmlFlow: 'html',
  blockQuote: 'other',
  listOrdered: 'other',
  listUnordered: 'other',
  paragraph: 'other',
  thematicBreak: 'other',
  definition: 'other',
};

/** A top-level block being read: its token, and what its inner tokens said (heading depth, code's info and lines). */
interface Open {
  token: Token;
  kind: Block['kind'];
  depth: number;
  lang: string;
  /** Code: its lines and line endings, once past the opening fence (at once for indented code). */
  value: string[] | undefined;
}

/**
 * Parses markdown into its top-level blocks: what remark's tree has at its root (the same
 * positions, heading depths, code languages and values), read from micromark's events without
 * building the tree, whose nodes and positions for every line were most of the parse's cost.
 * Never throws: on a parser fault it returns none.
 */
export function parseBlocks(text: string): Block[] {
  let events: Event[];
  try {
    events = postprocess(
      parse({ extensions: EXTENSIONS })
        .document()
        .write(preprocess()(text, undefined, true)),
    );
  } catch {
    return [];
  }
  const blocks: Block[] = [];
  let depth = 0;
  let open: Open | undefined;
  for (const [kind, token, context] of events) {
    // A paragraph or definition comes wrapped in a `content` token, which makes no node.
    if (token.type === 'content' && depth === 0 && !open) continue;
    if (kind === 'enter') {
      if (depth === 0) {
        const top = TOP_LEVEL[token.type];
        if (top) open = { token, kind: top, depth: 0, lang: '', value: token.type === 'codeIndented' ? [] : undefined };
      }
      depth++;
      continue;
    }
    depth--;
    if (!open) continue;
    if (token === open.token) {
      blocks.push(finish(open, text));
      open = undefined;
      continue;
    }
    switch (token.type) {
      case 'atxHeadingSequence':
        if (!open.depth) open.depth = context.sliceSerialize(token).length;
        break;
      case 'setextHeadingLineSequence':
        open.depth = context.sliceSerialize(token).codePointAt(0) === 61 ? 1 : 2;
        break;
      case 'codeFencedFenceInfo':
        open.lang = context.sliceSerialize(token);
        break;
      case 'codeFencedFence':
        open.value ??= [];
        break;
      case 'codeFlowValue':
      case 'lineEnding':
        open.value?.push(context.sliceSerialize(token));
        break;
    }
  }
  return blocks;
}

function finish(open: Open, text: string): Block {
  const { start, end } = open.token;
  const startLine = start.line - 1;
  const endLine = end.line - 1;
  if (open.kind === 'heading')
    return { kind: 'heading', depth: open.depth, startLine, endLine, startOffset: start.offset, endOffset: end.offset };
  if (open.kind === 'code') {
    const fenced = open.token.type === 'codeFenced';
    const joined = (open.value ?? []).join('');
    const value = fenced ? joined.replace(/^(\r?\n|\r)|(\r?\n|\r)$/g, '') : joined.replace(/(\r?\n|\r)$/g, '');
    const firstLine = text.slice(start.offset, start.offset + 3);
    return {
      kind: 'code',
      lang: open.lang,
      value,
      startLine,
      endLine,
      fenced: firstLine === '```' || firstLine === '~~~',
      column: start.column - 1,
    };
  }
  return { kind: open.kind, startLine, endLine };
}

/** The heading's text without its `#` marks (ATX) or underline (setext). */
export function headingText(text: string, block: Extract<Block, { kind: 'heading' }>): string {
  const raw = text.slice(block.startOffset, block.endOffset);
  const firstLine = raw.split(/\r?\n|\r/)[0] ?? '';
  if (/^ {0,3}#/.test(firstLine)) {
    return firstLine
      .replace(/^ {0,3}#+[ \t]*/, '')
      .replace(/[ \t]+#+[ \t]*$/, '')
      .replace(/^#+$/, '')
      .trim();
  }
  return firstLine.trim();
}
