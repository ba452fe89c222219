/**
 * Prints how long parse+validate takes on generated benchmarks of growing size (20 to 20,000
 * chapters), beside the raw remark parse of the same text, the two interleaved. Goal: within
 * 1.3× of raw parsing, and linear in size. Prints figures; asserts nothing.
 */
import { loadavg } from 'node:os';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { loadBenchmark, validateBenchmark } from '../scenario/src';
import { interleaved, median, summary, timed } from './benchStats';
import { generate } from './generate';

/**
 * Chapters, and rounds of A B (raw, then parse+validate) at that size. 20,000 chapters are 23 MB of
 * markdown, a minute or more of remark on each side: one round. `--sizes 20,200` runs some only.
 */
const ALL_SIZES: [number, number][] = [
  [20, 60],
  [200, 15],
  [2000, 5],
  [20_000, 1],
];
const only = process.argv.includes('--sizes') ? process.argv[process.argv.indexOf('--sizes') + 1]?.split(',').map(Number) : undefined;
const SIZES = only ? ALL_SIZES.filter(([size]) => only.includes(size)) : ALL_SIZES;
const processor = unified().use(remarkParse);

function time(fn: () => void): number {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    fn();
    runs.push(performance.now() - t);
  }
  return runs.sort((a, b) => a - b)[2] ?? 0;
}

const warm = generate(50);
for (let i = 0; i < 3; i++) {
  for (const [f, t] of warm) if (f.endsWith('.md')) processor.parse(t);
  validateBenchmark(loadBenchmark({ name: 'warm-up', files: warm }));
}

void (async () => {
  console.log(
    'parse+validate ÷ raw remark parse of the same markdown, A B A B interleaved (goal: ≤ 1.3×, the same at every size); ' +
      `load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
  );
  for (const [size, rounds] of SIZES) {
    const files = generate(size);
    const markdown = [...files].filter(([f]) => f.endsWith('.md')).map(([, t]) => t);
    let diagnostics = 0;
    const pairs = await interleaved(
      rounds,
      () =>
        timed(() => {
          diagnostics = validateBenchmark(loadBenchmark({ name: 'generated', files })).length;
        }),
      () =>
        timed(() => {
          for (const t of markdown) processor.parse(t);
        }),
    );
    if (diagnostics > 0) console.log(`  (the generated benchmark has ${diagnostics} diagnostics: the generator is off)`);
    console.log(
      `  ${String(size).padStart(6)} chapters: ratio ${summary(pairs.ratios, '×', 2)}; ` +
        `parse+validate ${summary(pairs.a)}, raw ${summary(pairs.b)}, per chapter ${(median(pairs.a) / size).toFixed(3)} ms`,
    );
  }
  if (!only) hostile();
})();

/**
 * Hostile inputs that once overflowed the stack or went quadratic (issue #13): each should take
 * about as long as raw remark on the same text, or far less when a bound refuses it early.
 */
const BASE = new Map([
  ['benchmark.json', '{ "chapters": ["chapter1.md"] }'],
  ['instructions.md', 'You are Sam.'],
]);
const HOSTILE: [string, string, string][] = [
  ['50,000 phases', 'chapter1.md', Array.from({ length: 50_000 }, (_, i) => `## Phase ${i}\nHi.\n`).join('')],
  ['20,000 duplicate checks', 'chapter1.md', `## P\n${'❓ 1.1 q? Correct answer: a\n'.repeat(20_000)}`],
  ['20,000 unknown fact refs', 'chapter1.md', `## P\n${Array.from({ length: 20_000 }, (_, i) => `nowhere#1.${i}`).join('\n')}`],
  ['20,000 repeated categories', 'family.md', `# F\n\n${'## 1. Cat\n1.1 x\n'.repeat(20_000)}`],
  ['manifest nested 200,000 deep', 'benchmark.json', '['.repeat(200_000)],
  ['a 5 MB line', 'chapter1.md', `## P\n${'*a'.repeat(2_500_000)}`],
  ['300,000 lines of one paragraph', 'chapter1.md', `## P\n${'x\n'.repeat(300_000)}`],
];
function hostile(): void {
  console.log('\nhostile input                    raw remark   parse+validate');
  for (const [what, file, text] of HOSTILE) {
    const files = new Map(BASE);
    files.set(file, text);
    const raw = file.endsWith('.md') && text.length < 1_000_000 ? time(() => processor.parse(text)) : NaN;
    const full = time(() => validateBenchmark(loadBenchmark({ name: 'hostile', files })));
    console.log(
      `${what.padEnd(30)} ${Number.isNaN(raw) ? '         —' : `${raw.toFixed(1).padStart(10)} ms`} ${full.toFixed(1).padStart(13)} ms`,
    );
  }
}
