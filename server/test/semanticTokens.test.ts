/** Semantic tokens through the language server: a sheet's fact ids, and the continuation lines of a check. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SemanticTokensRequest, type SemanticTokens } from 'vscode-languageserver-protocol/node';
import { TOKEN_TYPES } from '../src/features/semanticTokens';
import { folder, InMemoryServer, ROOT, uriOf } from './harness';

const DIR = '/tokens';
const CHAPTER = [
  '## Exam', //                                                        0
  '❓ 1.1 [RECALL] Where and when do I pick up', //                      1
  '  the keys (family#1.1)? Correct answer: at the', //                 2
  '  agency, on {{FUTURE:3:days}}.', //                                  3
  '❓ 1.2 A one-line check? Correct answer: yes', //                     4
  'Plain text, 1.1 not a fact.', //                                     5
].join('\n');
const files = folder(DIR, {
  'benchmark.json': '{ "chapters": ["chapter1.md"] }',
  'instructions.md': 'You are Max.',
  'family.md': "# Family\n\n## 1. Lena\n1.1 Lena is 31\n1.12 Lena's birthday\n",
  'chapter1.md': CHAPTER,
  'notes.md': '1.1 a numbered line of a file that is no sheet\n',
});
const server = InMemoryServer.start(files);
after(async () => (await server).close());

/** Each token as `line:text=type`, decoded from the relative encoding of the protocol. */
async function tokens(file: string): Promise<string[]> {
  const result = (await (
    await server
  ).client.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: uriOf(`${DIR}/${file}`) } })) as SemanticTokens;
  const lines = (files[`${DIR}/${file}`] ?? '').split('\n');
  const out: string[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < result.data.length; i += 5) {
    const [dl = 0, dc = 0, length = 0, type = 0] = result.data.slice(i, i + 4);
    line += dl;
    character = dl ? dc : character + dc;
    out.push(`${line}:${(lines[line] ?? '').slice(character, character + length)}=${TOKEN_TYPES[type]}`);
  }
  return out;
}

test('every token type is declared in package.json and mapped to the scope the grammar gives the same text', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { semanticTokenTypes: { id: string }[]; semanticTokenScopes: { scopes: Record<string, string[]> }[] };
  };
  assert.deepEqual(
    pkg.contributes.semanticTokenTypes.map((t) => t.id),
    [...TOKEN_TYPES],
  );
  const grammar = readFileSync(join(ROOT, 'syntaxes', 'mmb.injection.tmLanguage.json'), 'utf8');
  for (const scopes of Object.values(pkg.contributes.semanticTokenScopes[0]!.scopes))
    assert.ok(grammar.includes(`"${scopes[0]}"`), scopes[0]);
});

test("a sheet's fact ids are tokens; a numbered line elsewhere is not", async () => {
  assert.deepEqual(await tokens('family.md'), ['3:1.1=mmbFactId', '4:1.12=mmbFactId']);
  assert.deepEqual(await tokens('notes.md'), []);
});

test("a check's continuation lines: question, then the label, then the answer; fact refs and templates left to the grammar", async () => {
  assert.deepEqual(await tokens('chapter1.md'), [
    '2:the keys (=mmbQuestion',
    '2:)? =mmbQuestion',
    '2:Correct answer:=mmbAnswerLabel',
    '2: at the=mmbAnswer',
    '3:agency, on =mmbAnswer',
    '3:.=mmbAnswer',
  ]);
});
