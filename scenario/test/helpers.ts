import { loadBenchmark, validateBenchmark, type Benchmark, type Diagnostic } from '../src';

/** A benchmark from inline files; `benchmark.json` and `instructions.md` are filled in when missing. */
export function bench(files: Record<string, string>, name = 'demo'): Benchmark {
  const all = new Map(Object.entries(files));
  if (!all.has('benchmark.json')) {
    const chapters = [...all.keys()].filter((f) => /^chapter\d+\.md$/.test(f)).sort((a, b) => num(a) - num(b));
    all.set('benchmark.json', JSON.stringify({ chapters }));
  }
  if (!all.has('instructions.md')) all.set('instructions.md', 'You are Max.');
  return loadBenchmark({ name, files: all });
}

function num(f: string): number {
  return Number(/\d+/.exec(f)?.[0] ?? 0);
}

export function diagnose(files: Record<string, string>): Diagnostic[] {
  return validateBenchmark(bench(files));
}

/** `file:line code` with 1-based lines, the way a reader would point at them. */
export function where(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.file}:${d.range.start.line + 1} ${d.code}`);
}

export const FAMILY = [
  '# Family',
  '',
  '## 1. Lena',
  '1.1 Lena is 31, a UX designer',
  "1.2 Lena's birthday — March 14",
  '',
  '## 2. Anna',
  '2.1 Sister, 37, a doctor in Hamburg',
  '',
].join('\n');

/** The engine's seeded generator (mulberry32): the same sequence on every run. */
export { seededRandom as random } from '../../engine/src/random';
