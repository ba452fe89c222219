/**
 * `mmb new agent <name> --kind process|module`: an agent to start from, the project's example
 * copied into `agents/`, and a run of it added to config.jsonc (written when there is none), so
 * that `mmb conformance <name>` passes on the stand-in as generated.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { isFolderName, parseConfig } from '../../../scenario/src';
import { didYouMeanSentence } from '../didYouMean';
import { UsageError } from '../errors';
import { withRunAdded } from './configRuns';

/** The example behind each kind: its file under examples/agents/, the file it becomes, and its run. */
const KINDS = {
  process: {
    example: 'my_agent.py',
    file: (name: string) => `agents/${name}.py`,
    run: (file: string) => ({ agent: 'process', command: ['python3', file] }),
  },
  module: { example: 'my-agent-module.mjs', file: (name: string) => `agents/${name}.mjs`, run: (file: string) => ({ agent: `./${file}` }) },
} as const;

export interface NewAgentInput {
  name: string | undefined;
  kind: string | undefined;
  cwd: string;
  /** The folder holding the examples (beside the bundle, or the repository's). */
  examples: string;
}

const FRESH_CONFIG = [
  '// MarathonMemBench workspace: `mmb run <run>`, `mmb conformance <run>`.',
  '{',
  '  "persona": { "model": "stand-in" },',
  '  "runs": {',
  '  }',
  '}',
  '',
].join('\n');

/**
 * The example's text with its own file name made the new file's: the module's header says which `"agent"` entry runs
 * it, the process agent says its name in `initialize`; a copy that kept the example's name would point at another file.
 */
function ownNames(text: string, example: string, file: string): string {
  return text.split(example).join(file);
}

export function newAgentCommand(input: NewAgentInput, out: (s: string) => void): number {
  const { name, cwd } = input;
  if (!name) throw new UsageError('mmb new agent needs a name: mmb new agent my-agent --kind process');
  if (!/^[a-z][a-z0-9_-]{0,59}$/.test(name) || !isFolderName(name))
    throw new UsageError(
      `"${name.slice(0, 60)}" cannot name an agent: use lower-case letters, digits, "-" and "_", starting with a letter.`,
    );
  if (input.kind !== 'process' && input.kind !== 'module')
    throw new UsageError(
      'mmb new agent needs --kind process (a program over the agent protocol) or --kind module (a JavaScript module).' +
        didYouMeanSentence(input.kind ?? '', Object.keys(KINDS)),
    );
  const kind = KINDS[input.kind];
  const file = kind.file(name);
  const target = join(cwd, file);
  if (existsSync(target)) throw new UsageError(`${file} exists already; pick another name.`);
  const configPath = join(cwd, 'config.jsonc');
  const text = existsSync(configPath) ? readFileSync(configPath, 'utf8') : FRESH_CONFIG;
  const { config, diagnostics } = parseConfig(text);
  if (diagnostics.some((d) => d.severity === 'error'))
    throw new UsageError('config.jsonc has errors: fix them first (mmb check config.jsonc), then add the agent.');
  if (config.runs.some((r) => r.name === name)) throw new UsageError(`config.jsonc has a run "${name}" already; pick another name.`);
  const benchmark = existsSync(join(cwd, 'benchmarks', 'starter')) ? 'starter' : (config.runs[0]?.benchmark ?? 'starter');
  const updated = withRunAdded(text, name, { benchmark, ...kind.run(file) });
  mkdirSync(join(cwd, 'agents'), { recursive: true });
  writeFileSync(target, ownNames(readFileSync(join(input.examples, kind.example), 'utf8'), kind.example, basename(file)));
  writeFileSync(configPath, updated);
  const created = `Created ${file} and the run "${name}" in ${relative(cwd, configPath) || 'config.jsonc'}.`;
  out(`${created}\nNext: \`mmb conformance ${name}\` checks it against every requirement; edit it, then \`mmb run ${name}\`.\n`);
  return 0;
}
