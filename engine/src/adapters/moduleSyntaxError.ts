/**
 * Where a module agent's syntax error is, for the one line that refuses the module (`agents/my-agent.mjs:3:46`).
 * Node's ES module loader throws a SyntaxError that names no place at all ("Unexpected token ';'"), so the file is
 * parsed again with acorn, which says where; a CommonJS module's place is on the first lines of Node's own stack.
 */
import { readFileSync, statSync } from 'node:fs';
import { parse, type Options } from 'acorn';

/** A 1-based line and column. */
export interface SourcePlace {
  line: number;
  column: number;
}

/** A module bigger than this is not parsed again: the error keeps Node's words alone. */
const MAX_PARSED_BYTES = 4 * 1024 * 1024;

/** The place of `error` in `file` when it is a syntax error that can be placed; else undefined. */
export function syntaxErrorPlace(file: string, error: unknown): SourcePlace | undefined {
  if (!(error instanceof SyntaxError)) return undefined;
  return stackPlace(file, error) ?? parsedPlace(file);
}

/** `/path/agent.cjs:2` then the line and a caret under the column: how Node's CommonJS loader places a syntax error. */
function stackPlace(file: string, error: SyntaxError): SourcePlace | undefined {
  const [first = '', , caret = ''] = (error.stack ?? '').split('\n', 3);
  const match = /^(.*):(\d+)$/.exec(first);
  if (!match || match[1] !== file || !/^ *\^/.test(caret)) return undefined;
  return { line: Number(match[2]), column: caret.indexOf('^') + 1 };
}

/** The first syntax error acorn finds in the file, as a module (or, for .js and .cjs, as a script if that is what parses). */
function parsedPlace(file: string): SourcePlace | undefined {
  // acorn reads JavaScript: a TypeScript module's errors keep Node's words.
  if (/\.[cm]?ts$/.test(file)) return undefined;
  let source: string;
  try {
    if (statSync(file).size > MAX_PARSED_BYTES) return undefined;
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const kinds: Options['sourceType'][] = file.endsWith('.mjs') ? ['module'] : file.endsWith('.cjs') ? ['script'] : ['module', 'script'];
  let place: SourcePlace | undefined;
  for (const sourceType of kinds) {
    const found = acornError(source, sourceType);
    if (found === 'parsed') return undefined;
    place ??= found;
  }
  return place;
}

function acornError(source: string, sourceType: Options['sourceType']): SourcePlace | 'parsed' | undefined {
  try {
    parse(source, { ecmaVersion: 'latest', sourceType, allowHashBang: true, allowReturnOutsideFunction: sourceType === 'script' });
    return 'parsed';
  } catch (e) {
    // acorn recurses on nesting: a RangeError (a stack overflow) has no place to give.
    const loc = (e as { loc?: { line: number; column: number } }).loc;
    return e instanceof SyntaxError && loc ? { line: loc.line, column: loc.column + 1 } : undefined;
  }
}
