/** Quick fixes through the language server, for the diagnostics it published, started in-process on an in-memory file system. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CodeActionRequest, type CodeAction } from 'vscode-languageserver-protocol/node';
import { folder, InMemoryServer, uriOf } from './harness';
import { pos } from './sample';
import { ignoreTitle } from '../src/features/codeActions';
import { DIAGNOSTIC_CODES } from '../../scenario/src';

const DIR = '/broken';
const server = InMemoryServer.start(
  folder(DIR, {
    'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"] }',
    'instructions.md': 'You are Max.',
    'family.md': '# Family\n\n## 1. Lena\n1.1 Lena is 31\n',
    'chapter1.md': '## P\nTell the `family` sheet. See famly#1.1.\n❓ 1.1 Q?\n❓ 1.1 Q? Correct answer: a\n',
  }),
);
after(async () => (await server).close());

/** The fixes offered for every diagnostic the server published for a file. */
async function fixesFor(file: string): Promise<CodeAction[]> {
  const session = await server;
  const uri = uriOf(`${DIR}/${file}`);
  await session.until(() => session.published.has(uri));
  const diagnostics = session.published.get(uri)?.diagnostics ?? [];
  const range = { start: pos(0, 0), end: pos(0, 0) };
  return (await session.client.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range,
    context: { diagnostics },
  })) as CodeAction[];
}

test('quick fixes: did you mean, renumber, add the answer, create the chapter, ignore here', async () => {
  await (await server).open(`${DIR}/chapter1.md`);
  const fixes = await fixesFor('chapter1.md');
  assert.deepEqual(
    fixes.map((a) => a.title),
    [
      'Change to family',
      ignoreTitle('unknown-sheet'),
      'Add `Correct answer:`',
      ignoreTitle('malformed-check'),
      'Renumber to 1.2',
      ignoreTitle('duplicate-check-id'),
      'Renumber to 1.2',
      ignoreTitle('duplicate-check-id'),
    ],
  );
  assert.deepEqual(
    fixes.filter((a) => a.title.startsWith('Renumber')).map((a) => a.edit?.changes?.['file:///broken/chapter1.md']),
    [[{ range: { start: pos(2, 2), end: pos(2, 5) }, newText: '1.2' }], [{ range: { start: pos(3, 2), end: pos(3, 5) }, newText: '1.2' }]],
    'each duplicate renumbers its own line, never the other',
  );
  assert.deepEqual(fixes[0]?.edit?.changes?.['file:///broken/chapter1.md'], [
    { range: { start: pos(1, 29), end: pos(1, 34) }, newText: 'family' },
  ]);
  assert.deepEqual(fixes[1]?.edit?.changes?.['file:///broken/chapter1.md'], [
    { range: { start: pos(1, 0), end: pos(1, 0) }, newText: '<!-- mmb-ignore: unknown-sheet -->\n' },
  ]);
  const create = (await fixesFor('benchmark.json')).find((a) => a.title === 'Create chapter2.md');
  assert.deepEqual(create?.edit?.documentChanges?.[0], {
    kind: 'create',
    uri: 'file:///broken/chapter2.md',
    options: { ignoreIfExists: true },
  });
  const published = [...(await server).published.values()].flatMap((p) => p.diagnostics);
  assert.equal(published.length, 5, "the validator's five problems (the duplicate on both lines), each published once");
});

test('an unknown fact id is offered near ids with text: by spelling, else the nearest in its category or nearest category', async () => {
  const dir = '/facts';
  const session = await InMemoryServer.start(
    folder(dir, {
      'benchmark.json': '{ "chapters": ["chapter1.md"] }',
      'instructions.md': 'You are Max.',
      'family.md': "# Family\n\n## 1. Lena\n1.1 Lena is 31\n1.2 Lena's birthday — March 14\n\n## 2. Anna\n2.1 Sister, 37\n",
      'chapter1.md': '## P\nTell family#1.9 and family#4.7.\n',
    }),
  );
  try {
    const uri = uriOf(`${dir}/chapter1.md`);
    await session.open(`${dir}/chapter1.md`);
    await session.until(() => session.published.has(uri));
    const diagnostics = session.published.get(uri)?.diagnostics ?? [];
    const fixes = (await session.client.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: pos(1, 0), end: pos(1, 0) },
      context: { diagnostics },
    })) as CodeAction[];
    assert.deepEqual(
      fixes.map((a) => a.title),
      [
        'Change to family#1.1: Lena is 31',
        "Change to family#1.2: Lena's birthday — March 14",
        ignoreTitle('unknown-fact'),
        'Change to family#2.1: Sister, 37',
        ignoreTitle('unknown-fact'),
      ],
    );
    assert.deepEqual(fixes[3]?.edit?.changes?.[uri], [{ range: { start: pos(1, 27), end: pos(1, 30) }, newText: '2.1' }]);
    assert.equal(fixes[0]?.isPreferred, true);
  } finally {
    await session.close();
  }
});

test("the ignore fix's title says what the code means, from the one table of codes", () => {
  assert.equal(ignoreTitle('unknown-sheet'), 'Ignore unknown-sheet on this line: a reference to a sheet that does not exist');
  for (const [code, row] of Object.entries(DIAGNOSTIC_CODES)) {
    const title = ignoreTitle(code);
    assert.ok(title.startsWith(`Ignore ${code} on this line: `), title);
    assert.ok(title.length <= `Ignore ${code} on this line: `.length + 80, `${code}: the title is bounded`);
    assert.ok(
      row.summary.replaceAll('`', '').startsWith(title.split(': ').slice(1).join(': ').replace(/…$/, '')),
      `${code}: its row's words`,
    );
  }
  assert.equal(ignoreTitle('no-such-code'), 'Ignore no-such-code on this line');
});

test("an unknown fact's message and its quick fixes offer the same ids, in the same order (one function computes them)", async () => {
  const dir = '/same';
  const facts = ['1.1 Lena is 31', '1.2 Two', '1.3 Three', '1.4 Four', '1.5 Five', '1.6 Six', '1.7 Seven'];
  const session = await InMemoryServer.start(
    folder(dir, {
      'benchmark.json': '{ "chapters": ["chapter1.md"] }',
      'instructions.md': 'You are Max.',
      'family.md': `# Family\n\n## 1. Lena\n${facts.join('\n')}\n`,
      'chapter1.md': '## P\nTell family#1.16.\n',
    }),
  );
  try {
    const uri = uriOf(`${dir}/chapter1.md`);
    await session.open(`${dir}/chapter1.md`);
    await session.until(() => session.published.has(uri));
    const diagnostics = session.published.get(uri)?.diagnostics ?? [];
    const message = String(diagnostics[0]?.message);
    assert.match(message, /Did you mean `family#1\.1` or `family#1\.6` or `family#1\.7`\?$/);
    const fixes = (await session.client.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: pos(1, 0), end: pos(1, 0) },
      context: { diagnostics },
    })) as CodeAction[];
    const offered = fixes.flatMap((a) => (a.title.startsWith('Change to ') ? [/family#(\S+?):/.exec(a.title)?.[1]] : []));
    assert.deepEqual(offered, ['1.1', '1.6', '1.7']);
    assert.deepEqual(
      [...(message.split('Did you mean')[1] ?? '').matchAll(/`family#([\d.]+)`/g)].map((m) => m[1]),
      offered,
    );
  } finally {
    await session.close();
  }
});
