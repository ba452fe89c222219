/**
 * Adds a run to config.jsonc as a person would: one line `"name": { … }` after the last run, in the
 * file's own indentation, every comment and every other byte left as it was. `mmb new` (a benchmark's
 * rehearsal) and `mmb new agent` (the agent's run) both add theirs here. jsonc-parser's `modify` alone
 * formats the new value over several lines and, in a file on one line, reflows its neighbours too.
 */
import { applyEdits, findNodeAtLocation, modify, parseTree, type Node } from 'jsonc-parser';

/** A run's keys as config.jsonc holds them: strings, numbers, booleans, and lists or objects of them. */
export type RunEntry = Record<string, unknown>;

/** A value on one line, spaced as config.jsonc's own entries are: `{ "agent": "process", "command": ["python3", "a.py"] }`. */
export function oneLineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(oneLineJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length ? `{ ${entries.map(([key, v]) => `${JSON.stringify(key)}: ${oneLineJson(v)}`).join(', ')} }` : '{}';
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * `text` with the run `name` added to its `runs` (made when missing) as one line. The caller checks
 * that the text parses and that no run has the name.
 */
export function withRunAdded(text: string, name: string, entry: RunEntry): string {
  let source = text;
  let runs = runsNode(source);
  if (!runs) {
    source = applyEdits(source, modify(source, ['runs'], {}, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
    runs = runsNode(source);
    if (!runs) throw new Error('config.jsonc has no object to add "runs" to');
  }
  const line = `${JSON.stringify(name)}: ${oneLineJson(entry)}`;
  const close = runs.offset + runs.length - 1;
  const last = runs.children?.at(-1);
  const closeLineStart = source.lastIndexOf('\n', close - 1) + 1;
  const onItsOwnLine = /^[ \t]*$/.test(source.slice(closeLineStart, close));
  if (!onItsOwnLine) {
    // A one-line object: `{ "a": {…} }` becomes `{ "a": {…}, "b": {…} }`.
    if (!last) return `${source.slice(0, runs.offset + 1)} ${line} ${source.slice(close)}`;
    const at = last.offset + last.length;
    return `${source.slice(0, at)}${hasCommaAfter(source, at) ? '' : ','} ${line}${source.slice(at)}`;
  }
  const closeIndent = source.slice(closeLineStart, close);
  const indent = last ? indentOf(source, last.offset) : `${closeIndent}  `;
  let out = `${source.slice(0, closeLineStart)}${indent}${line}\n${source.slice(closeLineStart)}`;
  if (last && !hasCommaAfter(source, last.offset + last.length)) {
    const at = last.offset + last.length;
    out = `${out.slice(0, at)},${out.slice(at)}`;
  }
  return out;
}

function runsNode(text: string): Node | undefined {
  const node = findNodeAtLocation(parseTree(text) ?? { type: 'null', offset: 0, length: 0 }, ['runs']);
  return node?.type === 'object' ? node : undefined;
}

/** Whether the next token after `offset` (comments and spaces skipped) is a comma: a trailing comma is kept, not doubled. */
function hasCommaAfter(text: string, offset: number): boolean {
  const rest = text.slice(offset);
  // Spaces, `// …` to the end of the line and `/* … */`, then the token itself.
  const skipped = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/.exec(rest)?.[0].length ?? 0;
  return rest[skipped] === ',';
}

/** The spaces before the property at `offset`, when it starts its line; else two more than its line's. */
function indentOf(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : `${/^[ \t]*/.exec(before)?.[0] ?? ''}  `;
}
