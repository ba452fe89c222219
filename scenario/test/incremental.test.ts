/**
 * Incremental validation against validation from scratch: over long sequences of seeded random
 * edits to a generated benchmark (fact ids, check ids, trap lines, sheet refs, time anchors,
 * sheets and chapters added and removed, the manifest), the model kept up by `updateBenchmark`
 * and validated by one `BenchmarkValidation` gives, after every edit, exactly the diagnostics of
 * `validateBenchmark` on the folder loaded afresh.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generate } from '../../scripts/generate';
import {
  BenchmarkValidation,
  flattenDiagnostics,
  loadBenchmark,
  updateBenchmark,
  validateBenchmark,
  type Benchmark,
  type Diagnostic,
  type ParseCache,
} from '../src';
import { random } from './helpers';

type Files = Map<string, string>;
interface Editor {
  files: Files;
  pick: <T>(list: readonly T[]) => T;
  number: (below: number) => number;
}

const manifestOf = (files: Files): { chapters: string[]; start_time?: string } =>
  JSON.parse(files.get('benchmark.json') ?? '{}') as { chapters: string[] };
const chapters = (files: Files) => [...files.keys()].filter((f) => /^chapter\d+\.md$/.test(f));
const sheets = (files: Files) => [...files.keys()].filter((f) => /^sheet\d+\.md$/.test(f));

/** Inserts `line` after a random line of `file` (after line 0 at the least, so a chapter keeps its title). */
function insertLine(edit: Editor, file: string, line: string): void {
  const lines = (edit.files.get(file) ?? '').split('\n');
  lines.splice(1 + edit.number(lines.length), 0, line);
  edit.files.set(file, lines.join('\n'));
}

function removeLine(edit: Editor, file: string, pattern: RegExp): void {
  const lines = (edit.files.get(file) ?? '').split('\n');
  const matching = lines.map((l, i) => (pattern.test(l) ? i : -1)).filter((i) => i >= 0);
  if (matching.length) lines.splice(edit.pick(matching), 1);
  edit.files.set(file, lines.join('\n'));
}

const checkId = (edit: Editor) => `${1 + edit.number(8)}.${1 + edit.number(3)}`;
const factRef = (edit: Editor) =>
  `${edit.pick(['sheet0', 'sheet1', 'sheet2', 'sheet3', 'nosuch'])}#${1 + edit.number(4)}.${1 + edit.number(7)}`;

/** Each edit changes one or a few files; the names it touched are returned. */
const EDITS: ((edit: Editor) => string[])[] = [
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    insertLine(edit, f, 'Some prose the persona says, no reference in it.');
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    insertLine(edit, f, '');
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    insertLine(edit, f, `❓ ${checkId(edit)} [${edit.pick(['RECALL', 'HIST', 'HIST', 'AGG'])}] What was it? Correct answer: it.`);
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    removeLine(edit, f, /^❓/);
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    insertLine(edit, f, `🪤 RECONSIDER ${factRef(edit)} → ${checkId(edit)} — a change`);
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    removeLine(edit, f, /^🪤/);
    return [f];
  },
  (edit) => {
    // A trap aimed at a HIST check of another chapter: that chapter's hist-without-trap goes.
    const hist = [...edit.files.values()].flatMap((text) => [...text.matchAll(/❓ (\d+\.\d+) \[HIST\]/g)].map((m) => m[1] ?? ''));
    const f = edit.pick(chapters(edit.files));
    insertLine(edit, f, `🪤 STALE ${factRef(edit)} → ${hist.length ? edit.pick(hist) : checkId(edit)}`);
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    insertLine(edit, f, `Mention ${factRef(edit)} in passing.`);
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    insertLine(edit, f, `Tell the \`${edit.pick(['sheet1', 'sheet3', 'sheet4', 'sheet5', 'sheet9'])}\` sheet.`);
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    removeLine(edit, f, /sheet`? sheet|Tell the/);
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    insertLine(edit, f, `${String(8 + edit.number(12)).padStart(2, '0')}:${edit.pick(['00', '30'])} — she texts`);
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    insertLine(edit, f, `2026-03-${10 + edit.number(9)}, Tue`);
    return [f];
  },
  (edit) => {
    const f = edit.pick(chapters(edit.files));
    insertLine(edit, f, `<!-- mmb-ignore${edit.pick(['', ': unknown-fact', ': trap-target-missing'])} -->`);
    return [f];
  },
  (edit) => {
    const f = edit.pick(sheets(edit.files));
    insertLine(edit, f, `${1 + edit.number(4)}.${1 + edit.number(8)} ${edit.pick(['A new fact', '—'])}`);
    return [f];
  },
  (edit) => {
    const f = edit.pick(sheets(edit.files));
    removeLine(edit, f, /^\d+\.\d+ /);
    return [f];
  },
  (edit) => {
    // A fact deleted in place (its id stays): references to it now point at a deleted fact.
    const f = edit.pick(sheets(edit.files));
    const lines = (edit.files.get(f) ?? '').split('\n');
    const facts = lines.map((l, i) => (/^\d+\.\d+ /.test(l) ? i : -1)).filter((i) => i >= 0);
    if (facts.length) {
      const i = edit.pick(facts);
      const line = lines[i] ?? '';
      lines[i] = line.endsWith('—') ? `${line.slice(0, -1)}back again` : line.replace(/^(\d+\.\d+) .*$/, '$1 —');
    }
    edit.files.set(f, lines.join('\n'));
    return [f];
  },
  (edit) => {
    const f = edit.pick(sheets(edit.files));
    insertLine(edit, f, 'A line that is no fact');
    return [f];
  },
  (edit) => {
    const f = `sheet${edit.number(6)}.md`;
    if (edit.files.has(f) && sheets(edit.files).length > 1) edit.files.delete(f);
    else edit.files.set(f, `# New\n\n## 1. Topic\n1.1 One\n1.2 Two\n`);
    return [f];
  },
  (edit) => {
    const manifest = manifestOf(edit.files);
    const n = 1 + edit.number(14);
    const f = `chapter${n}.md`;
    if (manifest.chapters.includes(f) && manifest.chapters.length > 1) {
      manifest.chapters = manifest.chapters.filter((c) => c !== f);
      if (edit.number(2)) edit.files.delete(f);
    } else {
      manifest.chapters.splice(edit.number(manifest.chapters.length + 1), 0, f);
      if (!edit.files.has(f) || edit.number(2))
        edit.files.set(f, `# C\n\n## Phase\nTell the \`sheet1\` sheet.\n❓ ${n}.1 [RECALL] Q? Correct answer: A.\n`);
    }
    edit.files.set('benchmark.json', JSON.stringify(manifest, null, 2));
    return ['benchmark.json', f];
  },
  (edit) => {
    const manifest = manifestOf(edit.files);
    if (manifest.start_time) delete manifest.start_time;
    else manifest.start_time = `2026-03-${10 + edit.number(9)} 20:00`;
    edit.files.set('benchmark.json', JSON.stringify(manifest, null, 2));
    return ['benchmark.json'];
  },
  (edit) => {
    const f = `chapter${20 + edit.number(3)}.md`;
    if (edit.files.has(f)) edit.files.delete(f);
    else edit.files.set(f, '## Unlisted\n');
    return [f];
  },
  (edit) => {
    if (edit.files.has('instructions.md')) edit.files.delete('instructions.md');
    else edit.files.set('instructions.md', 'You are Max.\n');
    return ['instructions.md'];
  },
  // Two chapters at once (keystrokes in two files before one validation): prose in one, a time anchor in the other.
  (edit) => {
    const [one, two] = [edit.pick(chapters(edit.files)), edit.pick(chapters(edit.files))];
    insertLine(edit, one, 'More prose.');
    insertLine(edit, two, `${String(8 + edit.number(12)).padStart(2, '0')}:00 — she calls`);
    return [one, two];
  },
];

function run(seed: number, edits: number): { reused: number; partial: number } {
  const next = random(seed);
  const edit: Editor = {
    files: generate(12),
    pick: (list) => list[Math.floor(next() * list.length)] as (typeof list)[number],
    number: (below) => Math.floor(next() * below),
  };
  const cache: ParseCache = new Map();
  // The fresh side parses through a cache of its own (parsing is per file; validation is what is compared).
  const freshCache: ParseCache = new Map();
  const validation = new BenchmarkValidation();
  let model: Benchmark | undefined;
  let reused = 0;
  let partial = 0;
  let before = new Map<string, readonly Diagnostic[]>();
  for (let step = 0; step <= edits; step++) {
    const changed = step === 0 ? [] : (EDITS[Math.floor(next() * EDITS.length)] ?? EDITS[0]!)(edit);
    model = updateBenchmark(model, { name: 'generated', files: edit.files }, new Set(changed), cache);
    const { byFile, touched } = validation.validate(model);
    const fresh = loadBenchmark({ name: 'generated', files: new Map(edit.files) }, freshCache);
    assert.deepEqual(flattenDiagnostics(byFile), validateBenchmark(fresh), `seed ${seed}, edit ${step} (${changed.join(', ')})`);
    for (const file of fresh.lines.keys()) assert.ok(byFile.has(file), `${file} has its list, empty or not, after edit ${step}`);
    // What a publisher skips must be what it last published: the same files, the very same lists.
    if (touched) {
      assert.deepEqual([...byFile.keys()].sort(), [...before.keys()].sort(), `no file comes or goes untold, edit ${step}`);
      for (const [file, list] of byFile) if (!touched.has(file)) assert.equal(list, before.get(file), `${file} untouched, edit ${step}`);
    }
    before = new Map(byFile);
    if (validation.reusedIndex) reused++;
    if (step > 0 && validation.revalidated < byFile.size) partial++;
  }
  return { reused, partial };
}

test('after every one of hundreds of random edits, incremental validation equals validation from scratch', () => {
  let reused = 0;
  let partial = 0;
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const counts = run(seed, 80);
    reused += counts.reused;
    partial += counts.partial;
  }
  // The comparison would prove little if every edit had validated the whole folder again.
  assert.ok(reused > 40, `edits that kept the cross-file index: ${reused}`);
  assert.ok(partial > 200, `edits that validated only some files: ${partial}`);
});

test('a keystroke that changes no cross-file index validates one file; one that moves a check id validates its readers', () => {
  const files = generate(40);
  const cache: ParseCache = new Map();
  const validation = new BenchmarkValidation();
  let model = updateBenchmark(undefined, { name: 'g', files }, new Set(), cache);
  const first = validation.validate(model);
  assert.equal(validation.revalidated, first.byFile.size);
  const chapter4 = first.byFile.get('chapter4.md');

  files.set('chapter3.md', `${files.get('chapter3.md') ?? ''} `);
  model = updateBenchmark(model, { name: 'g', files }, new Set(['chapter3.md']), cache);
  const second = validation.validate(model);
  assert.equal(validation.revalidated, 1);
  assert.equal(validation.rechecked, 0, 'no other file is even asked');
  assert.ok(validation.reusedIndex);
  assert.deepEqual([...(second.touched ?? [])], ['chapter3.md']);
  assert.equal(second.byFile.get('chapter4.md'), chapter4, 'a kept list is the very same list');

  // Check 4.2 is the target of chapter 1's trap (3 chapters ahead): renaming it reaches chapter1.md.
  files.set('chapter4.md', (files.get('chapter4.md') ?? '').replace('❓ 4.2 [AGG]', '❓ 4.9 [AGG]'));
  model = updateBenchmark(model, { name: 'g', files }, new Set(['chapter4.md']), cache);
  const third = validation.validate(model).byFile;
  assert.ok(validation.reusedIndex, 'the index is updated in place');
  assert.deepEqual(
    third.get('chapter1.md')?.map((d) => d.code),
    ['trap-target-missing'],
  );
  assert.ok(validation.rechecked < 10, `only the readers of checks 4.2 and 4.9 are asked again: ${validation.rechecked} files`);
  assert.equal(validation.revalidated, 2, 'chapter 4, and chapter 1 whose trap aims at 4.2');
  assert.deepEqual(flattenDiagnostics(third), validateBenchmark(loadBenchmark({ name: 'g', files })));

  // A sheet no phase tells, then told from one chapter: the sheet's warning goes, though only the chapter changed.
  files.set('sheet99.md', '# Extra\n\n## 1. Topic\n1.1 One\n');
  model = updateBenchmark(model, { name: 'g', files }, new Set(['sheet99.md']), cache);
  assert.deepEqual(
    validation
      .validate(model)
      .byFile.get('sheet99.md')
      ?.map((d) => d.code),
    ['sheet-never-told'],
  );
  files.set('chapter5.md', `${files.get('chapter5.md') ?? ''}Tell the \`sheet99\` sheet.\n`);
  model = updateBenchmark(model, { name: 'g', files }, new Set(['chapter5.md']), cache);
  assert.deepEqual(validation.validate(model).byFile.get('sheet99.md'), []);
});

test('a folder whose suggestions spend the whole budget is validated as from scratch, one budget for all', () => {
  // 200 sheets of 120-letter names and 20 unknown sheet names near them: "did you mean" runs dry.
  const name = (i: number) => `${'s'.repeat(116)}${String(i).padStart(4, '0')}`;
  const files: Files = new Map([
    ['benchmark.json', JSON.stringify({ chapters: ['chapter1.md', 'chapter2.md'] })],
    ['instructions.md', 'You are Max.\n'],
  ]);
  for (let i = 0; i < 200; i++) files.set(`${name(i)}.md`, '# S\n\n## 1. T\n1.1 One\n');
  const unknown = Array.from({ length: 20 }, (_, i) => `Tell the \`${name(i).replace('s', 'x')}\` sheet.`).join('\n');
  files.set('chapter1.md', `## P\n${unknown}\n`);
  files.set('chapter2.md', `## P\n${unknown}\n`);
  const model = loadBenchmark({ name: 'hostile', files });
  const all = validateBenchmark(model);
  assert.ok(
    all.some((d) => d.code === 'unknown-sheet' && d.suggestions?.length === 0),
    'the budget ran out',
  );
  // With a budget per file, chapter2.md would get suggestions that validation from scratch never gives it.
  assert.deepEqual(flattenDiagnostics(new BenchmarkValidation().validate(model).byFile), all);
});
