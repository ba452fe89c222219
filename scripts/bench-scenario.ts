/**
 * Prints how long parse+validate takes on generated benchmarks of growing size, beside the raw
 * remark parse of the same text. Goal: within 2× of raw parsing, and linear in size. Prints
 * figures; asserts nothing.
 */
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { loadBenchmark, validateBenchmark } from '../scenario/src';
import { generate } from './generate';

const SIZES = [20, 200, 2000];
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

console.log('chapters   lines    raw remark   parse+validate   ratio   per chapter');
for (const size of SIZES) {
  const files = generate(size);
  const markdown = [...files].filter(([f]) => f.endsWith('.md')).map(([, t]) => t);
  const lines = markdown.reduce((n, t) => n + t.split('\n').length, 0);
  const raw = time(() => { for (const t of markdown) processor.parse(t); });
  let diagnostics = 0;
  const full = time(() => { diagnostics = validateBenchmark(loadBenchmark({ name: 'generated', files })).length; });
  if (diagnostics > 0) console.log(`  (the generated benchmark has ${diagnostics} diagnostics: the generator is off)`);
  console.log(`${String(size).padStart(8)} ${String(lines).padStart(7)} ${raw.toFixed(1).padStart(10)} ms ${full.toFixed(1).padStart(13)} ms ${(full / raw).toFixed(2).padStart(6)}× ${(full / size).toFixed(3).padStart(9)} ms`);
}
