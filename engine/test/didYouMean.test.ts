/**
 * The one did-you-mean (engine/src/didYouMean.ts) and the refusals that use it, through the built CLI: run ids,
 * --benchmark, chapters of --from and --filter, check types, folders given to `mmb check`, a workspace given for a
 * benchmark folder, and presets.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { didYouMean, didYouMeanSentence } from '../src/didYouMean';
import { mmb, tempDir, workspace } from './helpers';

test('didYouMean: the nearest candidate within a quarter of the name, or undefined', () => {
  assert.equal(didYouMean('rehersal', ['rehearsal', 'chatbot-deepseek']), 'rehearsal');
  assert.equal(didYouMean('startr', ['month', 'multiday', 'starter']), 'starter');
  assert.equal(didYouMean('Rehearsal', ['rehearsal']), 'rehearsal', 'another case is the name meant');
  assert.equal(didYouMean('chaptr1.md', ['chapter3.md', 'chapter2.md', 'chapter1.md']), 'chapter1.md');
  assert.equal(didYouMean('--fial-under', ['--fail-under', '--filter']), '--fail-under', 'a swap of two letters is one edit');
  assert.equal(didYouMean('easy', ['max-like', 'hard', 'month']), undefined);
  assert.equal(didYouMean('rehearsal', ['rehearsal']), undefined, 'the name itself is not a suggestion');
  assert.equal(didYouMean('x'.repeat(121), ['x'.repeat(120)]), undefined, 'a pasted paragraph is not a name');
  assert.equal(didYouMean('abc', []), undefined);
  assert.equal(didYouMean('b', ['a']), undefined, 'a name that shares nothing with the typed one is another name');
  assert.equal(didYouMean('ab', ['a']), 'a');
});

test('didYouMeanSentence: the nearest only (ties together, at most three), in the words of mmb check', () => {
  assert.equal(didYouMeanSentence('rehersal', ['rehearsal']), ' Did you mean `rehearsal`?');
  assert.equal(didYouMeanSentence('chaptr1.md', ['chapter1.md', 'chapter2.md', 'chapter3.md']), ' Did you mean `chapter1.md`?');
  assert.equal(didYouMeanSentence('chapter9.md', ['chapter1.md', 'chapter2.md']), ' Did you mean `chapter1.md` or `chapter2.md`?');
  assert.equal(didYouMeanSentence('easy', ['hard']), '');
});

const refusal = (args: string[], cwd: string): string => {
  const r = mmb(args, cwd);
  assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
  assert.equal(r.stdout, '');
  return r.stderr;
};

test('mmb run: a run id, a chapter of --from or --filter, a check type, a --benchmark typed wrong', () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { rehearsal: { benchmark: 'starter', agent: 'chatbot' } } });
  assert.equal(
    refusal(['run', 'rehersal'], dir),
    'mmb: no run "rehersal" in config.jsonc; its runs: rehearsal. Did you mean `rehearsal`?\n',
  );
  assert.equal(
    refusal(['run', 'rehersal', '--from', 'chapter1.md:1'], dir),
    'mmb: no run "rehersal" in config.jsonc; its runs: rehearsal. Did you mean `rehearsal`?\n',
  );
  assert.equal(refusal(['run', 'nothing-like-it'], dir), 'mmb: no run "nothing-like-it" in config.jsonc; its runs: rehearsal.\n');
  assert.equal(
    refusal(['run', 'rehearsal', '--from', 'chapter2.md:x'], dir),
    'mmb: --from needs a chapter file and a phase number, as in --from chapter2.md:1 (got "chapter2.md:x"). ' +
      'Did you mean `chapter2.md:1`?\n',
  );
  assert.equal(
    refusal(['run', 'rehearsal', '--from', 'chapter2.md:7', '--rehearse'], dir),
    'mmb: chapter2.md has 3 phases; --from chapter2.md:7 is not one of them. Did you mean `chapter2.md:3`?\n',
  );
  assert.equal(
    refusal(['run', 'rehearsal', '--from', 'chaptr2.md:1'], dir),
    'mmb: starter has no chapter chaptr2.md; its chapters: chapter1.md, chapter2.md, chapter3.md. Did you mean `chapter2.md:1`?\n',
  );
  assert.equal(
    refusal(['run', 'rehearsal', '--filter', 'chaptr2'], dir),
    'mmb: --filter: "chaptr2" is neither a chapter (chapter3), a check id (20.16) nor a check type (HIST). Did you mean `chapter2`?\n',
  );
  assert.match(refusal(['run', 'rehearsal', '--filter', 'chapter9'], dir), /its chapters: chapter1\.md, chapter2\.md, chapter3\.md\. Did/);
  assert.match(
    refusal(['run', 'rehearsal', '--filter', 'HSIT'], dir),
    /^mmb: --filter: HSIT is not a check type; .* Did you mean `HIST`\?\n$/,
  );
  assert.equal(
    refusal(['run', '--benchmark', 'startr', '--filter', 'chapter1', '--rehearse'], dir),
    'mmb: no benchmark "startr" in benchmarks; its benchmarks: starter. Did you mean `starter`?\n',
  );
  assert.equal(
    refusal(['run', '--benchmark', 'nothing', '--rehearse'], dir),
    'mmb: no benchmark "nothing" in benchmarks; its benchmarks: starter.\n',
  );
});

test('mmb check: a folder typed wrong, a workspace or its benchmarks/ given for a benchmark folder', () => {
  const dir = workspace({ runs: {} });
  assert.equal(
    refusal(['check', 'benchmarks/startr'], dir),
    'mmb: cannot read benchmarks/startr: no such file or folder. Did you mean `benchmarks/starter`?\n',
  );
  assert.equal(refusal(['check', 'nowhere'], dir), 'mmb: cannot read nowhere: no such file or folder\n');
  assert.equal(
    refusal(['check', '.'], dir),
    'mmb: . is a workspace (config.jsonc, benchmarks/), not a benchmark folder: `mmb check benchmarks/starter` checks one of its ' +
      'benchmarks (starter); `mmb check` alone checks all of it.\n',
  );
  const parent = join(dir, '..');
  const name = dir.slice(parent.length + 1);
  assert.equal(
    refusal(['check', `${name}/`], parent),
    `mmb: ${name} is a workspace (config.jsonc, benchmarks/), not a benchmark folder: \`mmb check ${name}/benchmarks/starter\` checks ` +
      `one of its benchmarks (starter); \`cd ${name} && mmb check\` checks all of it.\n`,
  );
  assert.equal(
    refusal(['check', 'benchmarks'], dir),
    'mmb: benchmarks holds benchmark folders but is not one: `mmb check benchmarks/starter` checks one of its benchmarks (starter).\n',
  );
  const bare = tempDir();
  writeFileSync(join(bare, 'config.jsonc'), '{}');
  mkdirSync(join(bare, 'notes'));
  assert.match(
    refusal(['check', '.'], bare),
    /is a workspace .*: it has no benchmarks yet \(`mmb new <name>` makes one\); `mmb check` alone/,
  );
  assert.equal(refusal(['check', 'notes'], bare), 'mmb: notes is not a benchmark folder: it has no benchmark.json.\n');
});

test('mmb conformance and mmb new agent: a run id, a --memory, a --kind typed wrong', () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { rehearsal: { benchmark: 'starter', agent: 'chatbot' } } });
  assert.equal(
    refusal(['conformance', 'rehersal'], dir),
    'mmb: no run "rehersal" in config.jsonc; its runs: rehearsal. Did you mean `rehearsal`?\n',
  );
  assert.equal(
    refusal(['conformance', 'rehearsal', '--memory', 'long-trem'], dir),
    'mmb: --memory is long-term or context-only. Did you mean `long-term`?\n',
  );
  assert.match(
    refusal(['new', 'agent', 'mine', '--kind', 'modul'], dir),
    /^mmb: mmb new agent needs --kind process .* Did you mean `module`\?\n$/,
  );
  assert.match(refusal(['new', 'agent', 'mine'], dir), /\(a JavaScript module\)\.\n$/);
});
