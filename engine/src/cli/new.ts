/**
 * `mmb new <name>`: a benchmark folder to start from, with every part of the format, that checks clean,
 * and its rehearsal in config.jsonc (`<name>-rehearsal`, the notebook agent; config.jsonc is written when
 * there is none), so that the command it prints rehearses the whole benchmark at once.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CONFIG_FILE, parseConfig } from '../../../scenario/src';
import { UsageError } from '../errors';
import { withRunAdded } from './configRuns';

/** A file's text from its lines, each ended by a newline. */
const textLines = (...lines: string[]): string => lines.map((line) => `${line}\n`).join('');

const files = (name: string): Record<string, string> => ({
  'benchmark.json': `{\n  "title": "${name}",\n  "chapters": ["chapter1.md", "chapter2.md", "chapter3.md"]\n}\n`,
  'README.md': textLines(
    `# ${name}`,
    '',
    'What this benchmark tests, in two or three sentences. See benchmarks/AUTHORING.md for the rules (`mmb init` puts it there).',
  ),
  'instructions.md': textLines(
    'You are Jo, 30, a nurse in Glasgow, talking to your personal assistant in short, friendly',
    'messages, a fact or two at a time. You never read out fact ids, and you quiz the assistant only',
    'when a phase tells you to.',
  ),
  'profile.md': textLines('# Jo', '', '## 1. About me', '1.1 Jo Reid, 30, a nurse at a Glasgow hospital', '1.2 Lives with a flatmate, Sam'),
  'garden.md': textLines(
    '# Allotment',
    '',
    '## 1. The plot',
    '1.1 The allotment is plot 14, rented for £60 a year',
    '1.2 Tomatoes and courgettes are planted this year',
    '',
    '## 2. Plans',
    '2.1 A shed is planned for May, budget £250',
  ),
  'chapter1.md': textLines(
    '# Chapter 1: getting acquainted',
    '',
    '## Introduction',
    'Introduce yourself: tell the `profile` sheet naturally.',
    '',
    '## The allotment',
    '```js',
    'vars.require_all_facts = "garden";',
    '```',
    'Tell the `garden` sheet; ask the assistant to keep track of the allotment.',
  ),
  'chapter2.md': textLines(
    '# Chapter 2: a change of plan',
    '',
    '## The shed',
    'Say the shed is off: a neighbour is giving you his old one for free. Update `garden` fact 2.1',
    'to "A neighbour\'s old shed, free, arriving in May".',
    '',
    '🪤 RECONSIDER garden#2.1 → 3.2, 3.3 — the £250 shed is no longer bought',
  ),
  'chapter3.md': textLines(
    '# Chapter 3: the exam',
    '',
    '## Exam',
    '```js',
    'await bench.newSession();',
    '```',
    'Say you want to check what the assistant remembers, then ask one question at a time.',
    '',
    '❓ 3.1 [RECALL] Which plot is my allotment? Correct answer: plot 14.',
    "❓ 3.2 [RECALL] Where is my shed coming from? Correct answer: a neighbour's old one, free.",
    '❓ 3.3 [HIST] What was the budget for the shed before the plan changed? Correct answer: £250.',
    '❓ 3.4 [VOID] How much water does the allotment use a week? Correct answer: you never told me.',
  ),
});

/** Refuses a name that cannot name a benchmark folder: `mmb new` and `mmb generate` take the same names. */
export function checkBenchmarkName(name: string): void {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
    throw new UsageError(`"${name}" cannot name a benchmark folder: use lower-case letters, digits and "-".`);
}

export function newCommand(name: string | undefined, cwd: string, out: (s: string) => void): number {
  if (!name) throw new UsageError('mmb new needs a name: mmb new my-benchmark');
  checkBenchmarkName(name);
  const dir = join(cwd, 'benchmarks', name);
  if (existsSync(dir)) throw new UsageError(`${relative(cwd, dir)} exists already; pick another name.`);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files(name))) writeFileSync(join(dir, file), text);
  const shown = relative(cwd, dir);
  const rehearsal = addRehearsal(cwd, name);
  out(
    textLines(
      `Created ${shown}: three chapters, a profile and one sheet, a trap and four checks.`,
      rehearsal.line,
      `Next: edit it, \`mmb check ${shown}\`, then rehearse it whole: ${rehearsal.command}`,
    ),
  );
  return 0;
}

/** The run `mmb new <name>` adds: the benchmark rehearsed whole by the notebook agent, whose notes outlive a session switch. */
export function rehearsalRunName(benchmark: string): string {
  return `${benchmark}-rehearsal`;
}

const FRESH_CONFIG = textLines(
  '// The runs of this workspace: `mmb run` plays them all, `mmb run <run-id>` one of them.',
  '// "stand-in" is the built-in model: no key, no network, no cost.',
  '{',
  '  "persona": { "model": "stand-in" },',
  '  "runs": {',
  '  }',
  '}',
);

/**
 * Adds the rehearsal run to config.jsonc (its comments kept, one line added), or says why not; the
 * command rehearses the whole benchmark on the stand-in either way, with no key.
 */
function addRehearsal(cwd: string, benchmark: string): { line: string; command: string } {
  const run = rehearsalRunName(benchmark);
  const wholeBenchmark = `mmb run --benchmark ${benchmark} --rehearse`;
  const path = join(cwd, CONFIG_FILE);
  const fresh = !existsSync(path);
  const text = fresh ? FRESH_CONFIG : readFileSync(path, 'utf8');
  const { config, diagnostics } = parseConfig(text);
  if (diagnostics.some((d) => d.severity === 'error'))
    return { line: `${CONFIG_FILE} has errors (mmb check ${CONFIG_FILE}): no run was added to it.`, command: wholeBenchmark };
  const existing = config.runs.find((r) => r.name === run);
  if (existing && existing.benchmark !== benchmark)
    return { line: `${CONFIG_FILE} has a run "${run}" of another benchmark: no run was added.`, command: wholeBenchmark };
  // A persona on a real model would need its key: --rehearse puts the run on the stand-in whatever the file says.
  const command = `mmb run ${run}${config.persona.model === 'stand-in' ? '' : ' --rehearse'}`;
  if (existing) return { line: `${CONFIG_FILE} has its run "${run}" already.`, command };
  const updated = withRunAdded(text, run, { benchmark, agent: 'notebook' });
  if (parseConfig(updated).diagnostics.some((d) => d.severity === 'error'))
    return { line: `the run "${run}" would not fit in ${CONFIG_FILE}: no run was added.`, command: wholeBenchmark };
  writeFileSync(path, updated);
  const where = fresh ? `in a new ${CONFIG_FILE}` : `to ${CONFIG_FILE}`;
  return { line: `Added the run "${run}" ${where}: the notebook agent, whose notes outlive a session switch.`, command };
}
