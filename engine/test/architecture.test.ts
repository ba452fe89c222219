/**
 * The architecture's guards, tested on what they must catch: the folder-cycle checker on a
 * planted cycle and on engine/src itself, and the lint's import rules on probe imports.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import { describeCycle, findCycle, folderGraph, moduleSpecifiers } from '../../scripts/check-imports';
import { IMPORT_RULES, importRulesTable } from '../../scripts/importRules.mjs';

const ROOT = join(__dirname, '..', '..');

function plant(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'mmb-cycle-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('the checker finds a planted folder cycle, type-only and re-exports included, and names the files', () => {
  const root = plant({
    'alpha/one.ts': "import { two } from '../beta/two';\nexport const one = two;\n",
    'beta/two.ts': "export type { Three } from '../gamma/deep/three';\nexport const two = 2;\n",
    'gamma/deep/three.ts': "import type { One } from '../../alpha/types';\nexport type Three = One;\n",
    'alpha/types.ts': 'export type One = number;\n',
  });
  const graph = folderGraph(root);
  const cycle = findCycle(graph);
  assert.deepEqual(cycle, ['alpha', 'beta', 'gamma', 'alpha']);
  const message = describeCycle(graph, cycle!);
  assert.match(message, /alpha → beta → gamma → alpha/);
  assert.match(message, /gamma → alpha \(gamma\/deep\/three\.ts\)/);
});

test('the checker passes layers, and imports inside a folder or out of the root are no edges', () => {
  const root = plant({
    'top/a.ts':
      "import { b } from '../low/b';\nimport { c } from './c';\nimport { x } from '../../elsewhere/x';\nexport const a = b + c + x;\n",
    'top/c.ts': "import { a } from './a';\nexport const c = a;\n",
    'low/b.ts': "import { readFileSync } from 'node:fs';\nexport const b = readFileSync.length;\n",
  });
  const graph = folderGraph(root);
  assert.deepEqual([...graph.get('top')!.keys()], ['low']);
  assert.equal(findCycle(graph), undefined);
});

test('every kind of import is read: static, re-export, dynamic, require, import type, import("…").T', () => {
  const text = [
    "import a from './a';",
    "export * from './b';",
    "const c = import('./c');",
    "const d = require('./d');",
    "import type { E } from './e';",
    "type F = import('./f').F;",
    "import g = require('./g');",
    "// import { no } from './comment';",
    'const text = "import { no } from \'./string\'";',
  ].join('\n');
  assert.deepEqual(moduleSpecifiers('x.ts', text), ['./a', './b', './c', './d', './e', './f', './g']);
});

test('the folders of engine/src form no import cycle', () => {
  const graph = folderGraph(join(ROOT, 'engine', 'src'));
  const cycle = findCycle(graph);
  assert.equal(cycle, undefined, cycle && describeCycle(graph, cycle));
  // The api is the editor's door, not a layer of the engine: no engine folder goes through it.
  for (const [folder, edges] of graph) assert.ok(!edges.has('api'), `${folder} imports the api (${edges.get('api')})`);
  // The layers the move of the chat and state types made: the models depend on no run, agent or stand-in.
  // The secrets masker is a leaf too: the model client masks what it receives; so is the full-disk check every writer uses,
  // and the did-you-mean of every typed name (protocol/runFilter.ts refuses a --filter term with it).
  const leaves = ['errors', 'protocol', 'secrets', 'diskFull', 'didYouMean'];
  for (const low of ['models', 'protocol', 'errors', 'jsonl', 'secrets', 'diskFull', 'didYouMean']) {
    const above = [...(graph.get(low)?.keys() ?? [])].filter((folder) => !leaves.includes(folder));
    assert.deepEqual(above, [], `${low} imports ${[...graph.get(low)!.keys()]}`);
  }
});

test("an adapter may import the persona's and the stand-in's helpers: the types they share live in protocol/", () => {
  const graph = folderGraph(join(ROOT, 'engine', 'src'));
  // Planted edges: before the agent and chat types moved to protocol/, each closed a cycle back into adapters/.
  for (const helper of ['persona', 'standin', 'state']) graph.get('adapters')!.set(helper, `adapters/planted.ts`);
  const cycle = findCycle(graph);
  assert.equal(cycle, undefined, cycle && describeCycle(graph, cycle));
});

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

test('the extension imports nothing of engine/ but engine/src/api, and nothing of server/', () => {
  const api = join(ROOT, 'engine', 'src', 'api');
  for (const file of sources(join(ROOT, 'extension', 'src'))) {
    for (const specifier of moduleSpecifiers(file, readFileSync(file, 'utf8')).filter((s) => s.startsWith('.'))) {
      const target = resolve(dirname(file), specifier);
      if (target.startsWith(join(ROOT, 'engine'))) assert.equal(target, api, `${file} imports ${specifier}`);
      assert.ok(!target.startsWith(join(ROOT, 'server')), `${file} imports ${specifier}`);
    }
  }
});

const eslint = new ESLint({ cwd: ROOT });

async function restricted(file: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(`${code}\nexport const probe = 1;\n`, { filePath: join(ROOT, file) });
  return result!.messages.some((m) => m.ruleId === 'no-restricted-imports');
}

test('lint: every import the table of scripts/importRules.mjs refuses fails in its part', async () => {
  const linted = IMPORT_RULES.filter((rule) => rule.files);
  assert.ok(linted.length >= 5, 'the table lost its linted parts');
  for (const rule of linted) {
    // A file the part's first glob covers: `engine/**/*.ts` gives `engine/probe.ts`.
    const probeFile = rule.files![0]!.replace('**/*.ts', 'probe.ts');
    for (const refused of rule.never) {
      assert.equal(await restricted(probeFile, `import '${refused.probe}';`), true, `${rule.part} imports ${refused.probe} unrefused`);
    }
  }
});

test('ARCHITECTURE.md shows the import table of scripts/importRules.mjs (npm run schemas writes it)', () => {
  assert.ok(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8').includes(importRulesTable()), 'run `npm run schemas`');
});

test("lint: the extension reaches the engine through its api alone, and never the server's modules", async () => {
  assert.equal(await restricted('extension/src/probe.ts', "import { readLock } from '../../engine/src/workspace/lock';"), true);
  assert.equal(await restricted('extension/src/probe.ts', "import type { RunState } from '../../engine/src/state/runState';"), true);
  assert.equal(await restricted('extension/src/probe.ts', "import { resultsDir } from '../../engine/src/protocol/layout';"), true);
  assert.equal(await restricted('extension/src/probe.ts', "import { BenchmarkWorkspace } from '../../server/src/workspace';"), true);
  assert.equal(await restricted('extension/src/probe.ts', "import { readLock } from '../../engine/src/api';"), false);
  assert.equal(await restricted('extension/src/probe.ts', "import { loadBenchmark } from '../../scenario/src';"), false);
});

test('lint: the language server imports neither vscode, the engine nor the extension', async () => {
  assert.equal(await restricted('server/src/probe.ts', "import * as vscode from 'vscode';"), true);
  assert.equal(await restricted('server/src/probe.ts', "import { readLock } from '../../engine/src/api';"), true);
  assert.equal(await restricted('server/src/probe.ts', "import { RunsHub } from '../../extension/src/runsHub';"), true);
  assert.equal(await restricted('server/src/probe.ts', "import { createConnection } from 'vscode-languageserver/node';"), false);
});

test("lint: the scenario model refuses every Node built-in, by Node's own list", async () => {
  const names = builtinModules.filter((name) => !name.startsWith('_'));
  assert.ok(names.includes('worker_threads') && names.includes('zlib'));
  for (const name of ['worker_threads', 'zlib', 'fs/promises', 'node:vm', 'dgram']) {
    assert.equal(await restricted('scenario/src/probe.ts', `import * as probe from '${name}';`), true, name);
  }
  assert.equal(await restricted('scenario/src/probe.ts', "import { unified } from 'unified';"), false);
});

/** Every package's source, where files stay under 300 lines and functions under 80. */
const SIZED_SOURCE = ['scenario/src', 'scenario/node', 'engine/src', 'engine/src/adapters', 'server/src', 'extension/src', 'scripts'];
/** Every place code lives, where lines stay within 140 characters. */
const LINED_CODE = [...SIZED_SOURCE, 'scenario/test', 'engine/test', 'server/test', 'extension/test', 'e2e'];

test('lint: in every package, files stay under 300 lines, functions under 80 and lines within 140 characters', async () => {
  const body = Array.from({ length: 81 }, (_, i) => `  total += ${i};`).join('\n');
  const longFunction = `export function long(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
  const bigFile = Array.from({ length: 301 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
  const longLine = `export const text = '${'x'.repeat(140)}';\n`;
  const rulesFired = async (text: string, folder: string): Promise<string[]> => {
    const [result] = await eslint.lintText(text, { filePath: join(ROOT, folder, 'probe.ts') });
    return result!.messages.map((message) => message.ruleId ?? '');
  };
  for (const folder of SIZED_SOURCE) {
    assert.ok((await rulesFired(longFunction, folder)).includes('max-lines-per-function'), `${folder}: a function of 84 lines passes`);
    assert.ok((await rulesFired(bigFile, folder)).includes('max-lines'), `${folder}: a file of 301 lines passes`);
  }
  for (const folder of LINED_CODE) assert.ok((await rulesFired(longLine, folder)).includes('max-len'), `${folder}: a long line passes`);
});

test('every source file opens with a comment that says its job, so that a newcomer finds it in the file itself', () => {
  const tracked = execFileSync(
    'git',
    ['ls-files', 'scenario/src', 'scenario/node', 'engine/src', 'server/src', 'extension/src', 'e2e', 'scripts', 'media'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  const sourceFiles = tracked.split('\n').filter((file) => /\.(ts|mjs|js|sh|css)$/.test(file));
  assert.ok(sourceFiles.length > 100, 'the files are listed');
  const silent = sourceFiles.filter((file) => {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    const first = lines[0]?.startsWith('#!') ? lines[1] : lines[0];
    // A comment of a few words at least: `// eslint-disable` or a lone `/**` line followed by code says nothing.
    const opening = (first ?? '').trim();
    const text = opening === '/**' ? (lines[lines.indexOf(first!) + 1] ?? '') : opening;
    return (
      !/^(\/\*\*?|\/\/|#|\*)/.test(opening) ||
      text
        .replace(/^[\s/*#]+/, '')
        .split(/\s+/)
        .filter(Boolean).length < 4
    );
  });
  assert.deepEqual(silent, [], 'each of these needs a header comment saying its job');
});
