/** Shared handling of JSON-with-comments files (`benchmark.json`, `config.jsonc`) with positions. */
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { diagnostic, type Diagnostic, type FormatCode } from './diagnostics';
import { jsonDepthExceeded, MAX_JSON_DEPTH, stripBom } from './limits';
import { didYouMeanText, nearNames } from './suggest';
import { LineIndex, type Range } from './text';
import { shorten } from './plainText';

const ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name was expected (in double quotes)',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a `:` was expected',
  CommaExpected: 'a `,` was expected',
  CloseBraceExpected: 'a closing `}` was expected',
  CloseBracketExpected: 'a closing `]` was expected',
  EndOfFileExpected: 'the document should end here',
  InvalidCommentToken: 'a malformed comment',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'a malformed escape',
  InvalidCharacter: 'a control character inside a string',
};

/** An unknown key longer than this is cut short in its message. */
const MAX_SHOWN_KEY = 80;

/** A parsed JSONC document and the means to report on its nodes. */
export class JsoncDocument {
  readonly lines: LineIndex;
  /** The text parsed: the source without its byte order mark, so that offsets match `lines`. */
  readonly text: string;
  readonly root: Node | undefined;
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    source: string,
    readonly file: string,
    private readonly code: FormatCode,
  ) {
    const text = stripBom(source);
    this.text = text;
    this.lines = new LineIndex(text);
    // jsonc-parser recurses once per level of nesting: deep input would overflow the stack.
    const tooDeep = jsonDepthExceeded(text);
    if (tooDeep >= 0) {
      this.root = undefined;
      this.report(
        this.lines.rangeOf(tooDeep, tooDeep + 1),
        `${file} nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep; it is not read: flatten it.`,
      );
      return;
    }
    const errors: ParseError[] = [];
    this.root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    for (const e of errors) {
      const what = ERROR_TEXT[printParseErrorCode(e.error)] ?? printParseErrorCode(e.error);
      this.report(this.lines.rangeOf(e.offset, e.offset + Math.max(e.length, 1)), `${file} is not valid JSON: ${what}.`);
    }
    if (errors.length === 0 && this.root?.type !== 'object') {
      this.report(this.rangeOf(this.root), `${file} must hold one JSON object, \`{ … }\`.`);
    }
  }

  rangeOf(node: Node | undefined): Range {
    return node ? this.lines.rangeOf(node.offset, node.offset + node.length) : this.lines.rangeOf(0, 0);
  }

  report(range: Range, message: string, code: FormatCode = this.code, suggestions?: string[]): void {
    this.diagnostics.push(diagnostic(code, this.file, range, message, suggestions?.length ? { suggestions } : {}));
  }

  /** The properties of an object node, by key. */
  static properties(node: Node | undefined): Map<string, { key: Node; value: Node }> {
    const map = new Map<string, { key: Node; value: Node }>();
    if (node?.type !== 'object') return map;
    for (const p of node.children ?? []) {
      const [key, value] = p.children ?? [];
      if (key && value && typeof key.value === 'string') map.set(key.value, { key, value });
    }
    return map;
  }

  /**
   * Reports the keys that `known` does not list, with a "did you mean": in benchmark.json an
   * `unknown-key` warning (the key is ignored), in config.jsonc an `unknown-config-key` error,
   * since a typo there would run something other than what the author asked for.
   */
  unknownKeys(
    node: Node | undefined,
    known: readonly string[],
    where: string,
    code: 'unknown-key' | 'unknown-config-key' = 'unknown-key',
  ): void {
    for (const [name, { key }] of JsoncDocument.properties(node)) {
      if (known.includes(name)) continue;
      const explain = code === 'unknown-config-key' ? `: its keys are ${known.filter((k) => k !== '$schema').join(', ')}` : '';
      this.reportUnknownKey(key, name, known, `${where} has no key`, code, explain);
    }
  }

  /** One unknown key, named (cut short: it comes from the file) with the known keys nearest to it. */
  reportUnknownKey(
    key: Node,
    name: string,
    known: readonly string[],
    lead: string,
    code: 'unknown-key' | 'unknown-config-key',
    explain = '',
  ): void {
    const shown = shorten(name, MAX_SHOWN_KEY);
    const suggestions = nearNames(name, known);
    const consequence = code === 'unknown-key' ? '; it is ignored.' : `${explain}.`;
    this.report(
      this.rangeOf(key),
      `${lead} \`${shown}\`${consequence}${didYouMeanText(suggestions)}`,
      code,
      suggestions.map((s) => JSON.stringify(s)),
    );
  }

  /**
   * Reports every key given twice in one object, at any depth: JSON parsers keep the last one
   * silently, so a second `"persona"` below the first would run a model the reader did not see.
   */
  reportDuplicateKeys(code: FormatCode = this.code): void {
    // A stack, not recursion: nesting is bounded before parsing, but the walk need not rely on it.
    const pending: { node: Node; path: string }[] = this.root ? [{ node: this.root, path: '' }] : [];
    while (pending.length) {
      const { node, path } = pending.pop()!;
      if (node.type === 'array') (node.children ?? []).forEach((child, i) => pending.push({ node: child, path: `${path}[${i}]` }));
      if (node.type !== 'object') continue;
      const seen = new Set<string>();
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (!key || typeof key.value !== 'string') continue;
        const shown = shorten(key.value, MAX_SHOWN_KEY);
        const inner = path ? `${path}.${shown}` : shown;
        if (seen.has(key.value)) {
          this.report(
            this.rangeOf(key),
            `\`${inner.replace(/[\s`]+/g, ' ')}\` is given twice in one object; ` +
              'only one may stand (the last would win unseen): delete the other.',
            code,
          );
        }
        seen.add(key.value);
        if (value) pending.push({ node: value, path: inner });
      }
    }
  }

  /** The value if it has the wanted JSON type; otherwise reports it and returns undefined. */
  expect<T extends 'string' | 'number' | 'boolean'>(
    node: Node | undefined,
    type: T,
    what: string,
  ): (T extends 'string' ? string : T extends 'number' ? number : boolean) | undefined {
    if (!node) return undefined;
    if (node.type !== type) {
      this.report(this.rangeOf(node), `${what} must be a ${type}.`);
      return undefined;
    }
    return node.value as T extends 'string' ? string : T extends 'number' ? number : boolean;
  }
}
