/** Static analysis of a phase's JS block with a real JavaScript parser (acorn). */
import { parse, type Node as AcornNode } from 'acorn';
import { simple } from 'acorn-walk';
import { diagnostic, type Diagnostic } from './diagnostics';
import { MAX_JS_CHARS } from './limits';
import { BENCH_API, type JsBlock, type SheetRef } from './model';
import { didYouMeanText, nearNames } from './suggest';
import { lineRange, range as makeRange, type LineIndex, type Range } from './text';

/** Where the code of a fenced block starts in its document. */
export interface CodeOrigin {
  /** 0-based document line of the code's first line. */
  line: number;
  /** Columns the fence was indented by; each code line had them stripped. */
  column: number;
}

interface Loc {
  start: { line: number; column: number };
  end: { line: number; column: number };
}
type Located = AcornNode & { loc?: Loc | null };

export function analyzeJs(code: string, blockRange: Range, origin: CodeOrigin, lines: LineIndex, file: string, out: Diagnostic[]): JsBlock {
  const block: JsBlock = { code, range: blockRange, newSession: false, benchMembers: [], requireAllFacts: [] };
  const toRange = (loc: Loc, trimStart = 0, trimEnd = 0): Range =>
    lines.clamp(
      makeRange(
        origin.line + loc.start.line - 1,
        origin.column + loc.start.column + trimStart,
        origin.line + loc.end.line - 1,
        origin.column + loc.end.column - trimEnd,
      ),
    );
  if (code.length > MAX_JS_CHARS) {
    out.push(
      diagnostic(
        'js-syntax-error',
        file,
        lines.clamp(lineRange(origin.line, origin.column, origin.column + 1)),
        `This JS block is ${code.length.toLocaleString('en-US')} characters long; ` +
          `a block is checked up to ${MAX_JS_CHARS.toLocaleString('en-US')}: keep the phase's code short.`,
      ),
    );
    return block;
  }
  let program: AcornNode;
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, locations: true });
  } catch (e) {
    const err = e as SyntaxError & { loc?: { line: number; column: number } };
    const line = origin.line + (err.loc?.line ?? 1) - 1;
    const column = origin.column + (err.loc?.column ?? 0);
    // acorn recurses on nesting: a stack overflow is reported like a syntax error, once.
    const message =
      e instanceof RangeError ? 'the code nests too deeply to be checked' : String(err.message).replace(/\s*\(\d+:\d+\)$/, '');
    out.push(
      diagnostic(
        'js-syntax-error',
        file,
        lines.clamp(lineRange(line, column, column + 1)),
        `JavaScript syntax error: ${message}. The block runs when the phase starts; fix it or the phase cannot start.`,
      ),
    );
    return block;
  }

  try {
    walkBlock(program, block, toRange, file, out);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    out.push(
      diagnostic(
        'js-syntax-error',
        file,
        lines.clamp(lineRange(origin.line, origin.column, origin.column + 1)),
        "JavaScript syntax error: the code nests too deeply to be checked. Keep the phase's code simple.",
      ),
    );
  }
  return block;
}

/** Finds the `bench` members, `newSession` calls and `vars.require_all_facts` of a block. acorn-walk recurses on depth. */
function walkBlock(
  program: AcornNode,
  block: JsBlock,
  toRange: (loc: Loc, trimStart?: number, trimEnd?: number) => Range,
  file: string,
  out: Diagnostic[],
): void {
  simple(program, {
    MemberExpression(node) {
      const n = node as typeof node & Located;
      if (n.object.type !== 'Identifier' || n.object.name !== 'bench') return;
      const prop = n.property as typeof n.property & Located;
      const name =
        !n.computed && prop.type === 'Identifier'
          ? prop.name
          : prop.type === 'Literal' && typeof prop.value === 'string'
            ? prop.value
            : undefined;
      if (name === undefined || !prop.loc) return;
      const r = toRange(prop.loc);
      block.benchMembers.push({ name, range: r });
      if (!Object.hasOwn(BENCH_API, name)) {
        const suggestions = nearNames(name, Object.keys(BENCH_API));
        out.push(
          diagnostic(
            'unknown-bench-api',
            file,
            r,
            `\`bench.${name}\` does not exist: a JS block can call only ${Object.keys(BENCH_API)
              .map((k) => `bench.${k}`)
              .join(' and ')}.${didYouMeanText(suggestions)}`,
            { suggestions },
          ),
        );
      }
    },
    CallExpression(node) {
      const callee = node.callee;
      if (
        callee.type === 'MemberExpression' &&
        callee.object.type === 'Identifier' &&
        callee.object.name === 'bench' &&
        callee.property.type === 'Identifier' &&
        callee.property.name === 'newSession'
      ) {
        block.newSession = true;
      }
    },
    AssignmentExpression(node) {
      const left = node.left;
      if (left.type !== 'MemberExpression' || left.object.type !== 'Identifier' || left.object.name !== 'vars') return;
      const key =
        !left.computed && left.property.type === 'Identifier'
          ? left.property.name
          : left.property.type === 'Literal'
            ? left.property.value
            : undefined;
      if (key !== 'require_all_facts') return;
      const values = node.right.type === 'ArrayExpression' ? node.right.elements : [node.right];
      for (const v of values) {
        const lit = v as (typeof v & Located) | null;
        if (lit?.type === 'Literal' && typeof lit.value === 'string' && lit.loc) {
          block.requireAllFacts.push(sheetRef(lit.value, toRange(lit.loc, 1, 1)));
        }
      }
    },
  });
}

function sheetRef(name: string, range: Range): SheetRef {
  return { sheet: name, range: range, via: 'require_all_facts', sheetWordFollows: true };
}
