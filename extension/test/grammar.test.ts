/** The TextMate injection grammar, tokenized by the same engine VS Code uses. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadWASM, OnigScanner, OnigString } from 'vscode-oniguruma';
import { INITIAL, parseRawGrammar, Registry } from 'vscode-textmate';

const ROOT = join(__dirname, '..', '..');

async function grammar() {
  await loadWASM(readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer as ArrayBuffer);
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (p: string[]) => new OnigScanner(p),
      createOnigString: (s: string) => new OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === 'mmb.injection'
        ? parseRawGrammar(readFileSync(join(ROOT, 'syntaxes', 'mmb.injection.tmLanguage.json'), 'utf8'), 'mmb.injection.tmLanguage.json')
        : null,
  });
  const g = await registry.loadGrammar('mmb.injection');
  assert.ok(g);
  return g;
}

/** Each token's text with the last scope of the grammar's own, e.g. `20.3=constant.numeric.check-id.mmb`. */
async function tokens(line: string): Promise<string[]> {
  const g = await grammar();
  return g
    .tokenizeLine(line, INITIAL)
    .tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes.filter((s) => s.endsWith('.mmb')).at(-1)] as const)
    .filter(([text, scope]) => scope && text.trim())
    .map(([text, scope]) => `${text.trim()}=${scope}`);
}

test('a check line: mark, id, type, question, answer, with refs and templates inside', async () => {
  assert.deepEqual(await tokens('❓ 20.10 [RECALL] When does Anna visit (family#2.3)? Correct answer: {{FUTURE:3:weeks}}.'), [
    '❓=keyword.control.mmb',
    '20.10=constant.numeric.check-id.mmb',
    '[RECALL]=entity.name.type.check-type.mmb',
    'When does Anna visit (=meta.question.mmb',
    'family=entity.name.namespace.sheet.mmb',
    '#=punctuation.separator.fact-ref.mmb',
    '2.3=constant.numeric.fact-id.mmb',
    ')?=meta.question.mmb',
    'Correct answer:=entity.name.function.answer.mmb',
    '{{=punctuation.definition.template.begin.mmb',
    'FUTURE=support.function.template.mmb',
    ':=punctuation.separator.template.mmb',
    '3=constant.numeric.template.mmb',
    ':=punctuation.separator.template.mmb',
    'weeks=support.constant.unit.mmb',
    '}}=punctuation.definition.template.end.mmb',
    '.=markup.bold.answer.mmb',
  ]);
});

test('a trap line: type, fact refs, arrow, targets, note', async () => {
  assert.deepEqual(await tokens('🪤 SELF-FIX car#4.2 → 20.17, 20.18 — the customs estimate'), [
    '🪤=keyword.control.mmb',
    'SELF-FIX=entity.name.type.trap-type.mmb',
    'car=entity.name.namespace.sheet.mmb',
    '#=punctuation.separator.fact-ref.mmb',
    '4.2=constant.numeric.fact-id.mmb',
    '→=keyword.operator.arrow.mmb',
    '20.17, 20.18=constant.numeric.check-id.mmb',
    '— the customs estimate=comment.line.trap-note.mmb',
  ]);
});

test('date lines and time anchors', async () => {
  assert.deepEqual(await tokens('2026-03-10, Tue'), ['2026-03-10=constant.other.date.mmb', ', Tue=constant.other.weekday.mmb']);
  assert.deepEqual(await tokens('08:00 — same route as yesterday'), ['08:00=constant.other.time.mmb', '—=punctuation.separator.time.mmb']);
});

test('`Correct answer:` is not in a scope themes colour as a keyword or an error (the 2026 themes paint keywords red)', async () => {
  const label = (await tokens('❓ 1.1 Q? Correct answer: a')).find((t) => t.startsWith('Correct answer:='))?.split('=')[1] ?? '';
  assert.equal(label, 'entity.name.function.answer.mmb');
  assert.doesNotMatch(label, /^(keyword|invalid|markup\.deleted|storage)/);
});

/**
 * Scopes the built-in themes paint in a string or error colour (Light Modern's strings are dark red, #a31515;
 * High Contrast Light's keywords red): a check's question and answer, which fill a whole exam chapter, wear none.
 */
const ALARMING_SCOPES = /^(string|invalid|keyword|markup\.deleted|message\.error|storage)/;

test('a check question and its answer are plain text and bold, never in a scope themes colour as a string or an error', async () => {
  const line = '❓ 20.3 [RECALL] What dose of vitamin D am I taking? Correct answer: 4000 IU.';
  const scoped = await tokens(line);
  assert.deepEqual(
    scoped.filter((t) => !t.startsWith('❓=')),
    [
      '20.3=constant.numeric.check-id.mmb',
      '[RECALL]=entity.name.type.check-type.mmb',
      'What dose of vitamin D am I taking?=meta.question.mmb',
      'Correct answer:=entity.name.function.answer.mmb',
      '4000 IU.=markup.bold.answer.mmb',
    ],
  );
  for (const token of scoped.filter((t) => !t.startsWith('❓='))) assert.doesNotMatch(token.split('=')[1] ?? '', ALARMING_SCOPES, token);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { semanticTokenTypes: { id: string; superType?: string }[]; semanticTokenScopes: { scopes: Record<string, string[]> }[] };
  };
  for (const type of pkg.contributes.semanticTokenTypes.filter((t) => t.id === 'mmbQuestion' || t.id === 'mmbAnswer')) {
    // A theme falls back to the super type's colour when the type's own scope has none: `string` would be red again.
    assert.equal(type.superType, undefined, `${type.id} has no string super type`);
    for (const scope of pkg.contributes.semanticTokenScopes[0]?.scopes[type.id] ?? []) assert.doesNotMatch(scope, ALARMING_SCOPES);
  }
});
