/**
 * No key in anything the engine writes or serves, memory snapshots included. Through the built
 * CLI (`npm run build` first), a hostile process agent (fixtures/leaky-agent.mjs) writes the
 * persona's key, its own model's key and a credential-named variable's value into its memory in
 * every form the masker knows, plants links out of its folder, a dot folder, a binary file, a file
 * named after a key and one over the bounds; a second one's memory folder is a link out. After
 * the run a snapshot folder is replaced by a link out, a link and an unmasked file (as an older
 * engine wrote) are planted in another, and an unmasked run of another machine is merged. Then
 * every file under results/ the engine wrote, every page `mmb view` serves and everything the
 * CLI printed is searched for every form of every key: none is found, nor the outside file.
 *
 * The decision on `results/<id>/agent/`: it is the agent's own working folder (MMB_AGENT_HOME),
 * written by the agent, not by the engine, and kept as the agent wrote it so that a resumed run
 * finds its state. The engine never serves it (no page, report or merge reads it): it is left out
 * of the search, and docs/engine.md says not to share it.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { readMemorySnapshots } from '../src/report/memory';
import { copyMemoryFolder, SNAPSHOT_LIMITS } from '../src/run/memorySnapshot';
import { SecretMasker } from '../src/secrets';
import { startStandIn } from '../src/standin/server';
import { CLI, mmbAsync, tempDir, workspace } from './helpers';

const PERSONA_KEY = 'sk-persona-canary/4b7e+9d2c=61a08f3e';
const AGENT_KEY = 'sk-agent-canary-5c81d0e2b94f7a36';
/** A credential-named variable no config names: masked because its name says it is a credential. */
const EXTRA_TOKEN = 'tok-extra-canary-8e3f1a9c27d4b650';
const CANARIES = [PERSONA_KEY, AGENT_KEY, EXTRA_TOKEN];
/** In the outside file only, which no link may bring into a page. */
const OUTSIDE_MARKER = 'OUTSIDE-FILE-MARKER-0c4f';

/** Every form of a key to search for: whole and encoded, and every 8-character window of it and of its base64. */
function searched(key: string): string[] {
  const bytes = Buffer.from(key);
  const base64 = bytes.toString('base64');
  const windows = (text: string) => Array.from({ length: text.length - 7 }, (_, i) => text.slice(i, i + 8));
  return [
    key,
    base64,
    bytes.toString('base64url'),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    encodeURIComponent(key),
    Buffer.from(`user:${key}`).toString('base64'),
    ...windows(key),
    ...windows(base64.slice(0, -4)),
  ];
}

const FORMS = [...CANARIES.flatMap(searched), OUTSIDE_MARKER];

function leaks(text: string): string[] {
  return FORMS.filter((form) => text.includes(form));
}

/** The CLI without blocking: the stand-in the runs call lives in this process. */
const cli = mmbAsync;

/** Every entry under `dir`, links not followed: files and links apart. */
function entriesUnder(dir: string): { files: string[]; links: string[] } {
  const out = { files: [] as string[], links: [] as string[] };
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) out.links.push(path);
    else if (stat.isDirectory()) {
      const inner = entriesUnder(path);
      out.files.push(...inner.files);
      out.links.push(...inner.links);
    } else out.files.push(path);
  }
  return out;
}

function fetchText(port: number, path: string, cookie = ''): Promise<{ status: number; text: string; setCookie: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers: { Cookie: cookie } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text, setCookie: String(res.headers['set-cookie'] ?? '').split(';')[0]! }),
      );
    }).on('error', reject);
  });
}

/** Every page `mmb view` serves for these runs, fetched with its token; the view's own output is in `printed`. */
async function servedPages(root: string, env: NodeJS.ProcessEnv, printed: string[]): Promise<Map<string, string>> {
  const child = spawn(process.execPath, [CLI, 'view', '--port', '0'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const pages = new Map<string, string>();
  try {
    for (let tries = 0; !/\?token=[\w-]+/.test(out) && tries < 200; tries++) await new Promise((r) => setTimeout(r, 50));
    const url = /http:\/\/127\.0\.0\.1:(\d+)(\/\?token=[\w-]+)/.exec(out);
    assert.ok(url, out + err);
    const port = Number(url[1]);
    const { setCookie } = await fetchText(port, url[2]!);
    for (const path of ['/', '/run/leaky', '/run/linked', '/compare?run=leaky&run=linked', '/trends', '/trends?run=leaky&run=linked']) {
      const page = await fetchText(port, path, setCookie);
      assert.equal(page.status, 200, `${path}: ${page.text.slice(0, 300)}`);
      pages.set(path, page.text);
    }
  } finally {
    child.kill('SIGINT');
    await exited;
    printed.push(out, err);
  }
  return pages;
}

test(
  'no form of a key, and no outside file, in any file under results/, any page of mmb view, or anything printed',
  { timeout: 180_000 },
  async () => {
    const standIn = await startStandIn();
    try {
      const model = (name: string, keyEnv: string) => ({ model: name, base_url: standIn.url, api_key_env: keyEnv });
      const agent = (mode: string, leakDir: string) => ({
        benchmark: 'starter',
        agent: 'process',
        command: [process.execPath, join(__dirname, 'fixtures', 'leaky-agent.mjs')],
        env_set: { LEAK_DIR: leakDir, LEAK_MODE: mode },
        agent_model: model('agent-model', 'MMB_TEST_AGENT_KEY'),
      });
      const config = (leakDir: string) => ({
        persona: model('persona-model', 'MMB_TEST_PERSONA_KEY'),
        runs: { leaky: agent('memory', leakDir), linked: agent('linked', leakDir) },
      });
      const root = workspace(config(''));
      // Outside results/ but in the workspace, which a sandboxed agent (agent_sandbox) still reads.
      const outside = join(root, 'outside');
      mkdirSync(outside);
      writeFileSync(join(root, 'config.jsonc'), JSON.stringify(config(outside)));
      writeFileSync(join(outside, 'keys.json'), JSON.stringify({ persona: PERSONA_KEY, extra: EXTRA_TOKEN }));
      writeFileSync(join(outside, 'secret.txt'), `${OUTSIDE_MARKER} ${PERSONA_KEY}\n`);
      const env = { MMB_TEST_PERSONA_KEY: PERSONA_KEY, MMB_TEST_AGENT_KEY: AGENT_KEY, MMB_TEST_EXTRA_TOKEN: EXTRA_TOKEN };
      const printed: string[] = [];
      const run = async (args: string[], cwd = root) => {
        const r = await cli(args, cwd, env);
        printed.push(r.stdout, r.stderr);
        assert.equal(r.code, 0, `mmb ${args.join(' ')}: ${r.stdout}${r.stderr}`);
      };
      await run(['run']);
      const results = join(root, 'results');
      const snapshot = join(results, 'leaky', 'memory', '2');
      const notes = readFileSync(join(snapshot, 'notes.md'), 'utf8');
      assert.match(notes, /^# Notes\nThe user is moving flat\.\nwhole \*\*\*\nbase64 \*\*\*\n/, 'the notes are copied, their keys masked');
      assert.deepEqual(
        readdirSync(snapshot, { recursive: true }).sort(),
        ['deep', 'deep/keys.json', 'notes.md'],
        'no link, dot entry, binary file, file named after a key, nor file over the bounds',
      );
      assert.deepEqual(readdirSync(join(results, 'linked', 'memory', '2')), [], 'a memory folder that is a link is not copied');

      // A run of another machine, its snapshot unmasked (an older engine), merged: it arrives masked.
      const shard = tempDir('mmb-shard-');
      cpSync(join(results, 'linked'), join(shard, 'results', 'linked'), { recursive: true });
      rmSync(join(results, 'linked'), { recursive: true });
      writeFileSync(join(shard, 'results', 'linked', 'memory', '1', 'old.md'), `from another machine: ${AGENT_KEY}\n`);
      await run(['report', '--merge', join(shard, 'results')]);
      assert.equal(readFileSync(join(results, 'linked', 'memory', '1', 'old.md'), 'utf8'), 'from another machine: ***\n');

      // Planted after the run: a snapshot folder that is a link out, a link and an unmasked file in a real one.
      rmSync(join(results, 'linked', 'memory', '2'), { recursive: true });
      symlinkSync(outside, join(results, 'linked', 'memory', '2'));
      symlinkSync(join(outside, 'secret.txt'), join(snapshot, 'planted.txt'));
      const older = join(snapshot, 'older-engine.md');
      writeFileSync(older, `written unmasked by an older engine: ${PERSONA_KEY} ${Buffer.from(EXTRA_TOKEN).toString('base64')}\n`);

      await run(['report', 'leaky', '--html']);
      await run(['report', 'linked', '--html']);
      await run(['report', '--compare', 'leaky', 'linked']);
      await run(['report', '--trends']);
      await run(['report', 'leaky']);
      await run(['report', '--json']);
      const report = readFileSync(join(results, 'leaky', 'report.html'), 'utf8');
      assert.match(
        report,
        /older-engine\.md<\/div><pre><span class="mem-line">written unmasked by an older engine: \*\*\* \*\*\*<\/span>/,
        'masked again when read',
      );
      assert.doesNotMatch(report, /planted\.txt/, 'a link in a snapshot is never read');

      const pages = await servedPages(root, env, printed);
      assert.match(pages.get('/run/leaky')!, /older-engine\.md/, 'the run page shows the snapshot');
      for (const [path, page] of pages) assert.deepEqual(leaks(page), [], `mmb view ${path} holds a key`);

      const { files, links } = entriesUnder(results);
      const agentFolders = new Set(['leaky', 'linked'].map((id) => join(results, id, 'agent') + sep));
      const byEngine = files.filter((f) => f !== older && ![...agentFolders].some((folder) => f.startsWith(folder)));
      for (const name of [
        'state.json',
        'journal.jsonl',
        'summary.json',
        'report.md',
        'report.html',
        'trends.html',
        'compare-leaky-vs-linked.html',
      ]) {
        assert.ok(
          byEngine.some((f) => f.endsWith(name)),
          `${name} was written`,
        );
      }
      for (const file of byEngine) assert.deepEqual(leaks(readFileSync(file, 'utf8')), [], `${relative(root, file)} holds a key`);
      const planted = [join(results, 'linked', 'memory', '2'), join(snapshot, 'planted.txt')];
      assert.deepEqual(
        links.filter((l) => ![...agentFolders].some((folder) => l.startsWith(folder))).sort(),
        planted.sort(),
        'the engine wrote no link',
      );
      for (const text of printed) assert.deepEqual(leaks(text), [], `the CLI printed a key: ${text.slice(0, 500)}`);
    } finally {
      await standIn.close();
    }
  },
);

test('a snapshot copies regular UTF-8 text files within its bounds and nothing else; a FIFO never blocks it', () => {
  const from = tempDir('mmb-memory-');
  const masker = new SecretMasker([AGENT_KEY]);
  writeFileSync(join(from, 'notes.md'), `key ${AGENT_KEY}\n`);
  let deep = from;
  for (let depth = 1; depth <= SNAPSHOT_LIMITS.maxDepth + 2; depth++) {
    deep = join(deep, `d${depth}`);
    mkdirSync(deep);
    writeFileSync(join(deep, 'level.txt'), `${depth}\n`);
  }
  writeFileSync(join(from, 'big.txt'), 'x'.repeat(SNAPSHOT_LIMITS.maxFileBytes + 1));
  writeFileSync(join(from, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  execFileSync('mkfifo', [join(from, 'pipe.txt')]);
  symlinkSync('/etc/hostname', join(from, 'link.txt'));
  const to = join(tempDir('mmb-snapshot-'), '1');
  const copy = copyMemoryFolder(from, to, masker);
  assert.equal(readFileSync(join(to, 'notes.md'), 'utf8'), 'key ***\n');
  const levels = readdirSync(to, { recursive: true }).filter((name) => String(name).endsWith('level.txt'));
  assert.equal(levels.length, SNAPSHOT_LIMITS.maxDepth, 'folders deeper than the bound are left out');
  assert.deepEqual(
    ['big.txt', 'latin1.txt', 'pipe.txt', 'link.txt'].filter((name) => readdirSync(to).includes(name)),
    [],
  );
  assert.equal(copy.leftOut, 5, 'the too-deep folder, the big file, the non-UTF-8 one, the FIFO and the link');

  const many = tempDir('mmb-memory-');
  for (let i = 0; i < SNAPSHOT_LIMITS.maxEntries + 10; i++) writeFileSync(join(many, `n${String(i).padStart(5, '0')}.txt`), 'x');
  assert.equal(copyMemoryFolder(many, join(tempDir('mmb-snapshot-'), '1'), masker).files, SNAPSHOT_LIMITS.maxEntries);

  const linked = join(tempDir('mmb-memory-'), 'memory');
  symlinkSync(from, linked);
  assert.deepEqual(
    copyMemoryFolder(linked, join(tempDir('mmb-snapshot-'), '1'), masker),
    { files: 0, leftOut: 0 },
    'a memory folder that is a link',
  );
});

test('the reader shows only real folders and files in results/: a linked memory/, a FIFO, a run folder outside give nothing', () => {
  const root = tempDir('mmb-reader-');
  const run = join(root, 'results', 'r1');
  mkdirSync(join(run, 'memory', '1'), { recursive: true });
  writeFileSync(join(run, 'memory', '1', 'notes.md'), `noted ${AGENT_KEY}\n`);
  const outside = tempDir('mmb-outside-');
  cpSync(run, join(outside, 'r3'), { recursive: true });
  symlinkSync(join(outside, 'r3'), join(root, 'results', 'r3'));
  execFileSync('mkfifo', [join(run, 'memory', '1', 'pipe.md')]);
  const masker = new SecretMasker([AGENT_KEY]);
  assert.deepEqual(readMemorySnapshots(run, masker), [{ conversation: 1, files: [{ name: 'notes.md', text: 'noted ***\n', cut: false }] }]);
  const elsewhere = join(root, 'results', 'r2');
  mkdirSync(elsewhere);
  symlinkSync(join(run, 'memory'), join(elsewhere, 'memory'));
  assert.deepEqual(readMemorySnapshots(elsewhere, masker), [], 'memory/ itself a link');
  assert.deepEqual(readMemorySnapshots(join(root, 'results', 'r3'), masker), [], 'a run folder that leads out of results/');
});
