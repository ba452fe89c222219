/**
 * `mmb demo`: every bundled benchmark on the stand-in, no config and no key: the chatbot with the whole
 * conversation in context, the chatbot after a session switch that leaves it nothing, and the notebook
 * agent, whose notes outlive the switch. The gap between them is what the benchmark measures.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseConfig, type Config, type RunConfig } from '../../../scenario/src';
import { resultsDir } from '../protocol/layout';
import { findBenchmarkFolders } from '../workspace/folders';
import { execute, type Io } from './run';

const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * The bundled benchmarks on the stand-in: the chatbot with the whole conversation, the chatbot after a
 * session switch, and the notebook agent, whose notes outlive the switch: a memory at work.
 */
export async function demoCommand(root: string, bundled: string, io: Io): Promise<number> {
  const names = findBenchmarkFolders(dirname(bundled)).map((p) => p.split(/[\\/]/).pop() ?? '');
  const run = (name: string, benchmark: string, agent: string, breaks: 'ignored' | 'kept'): RunConfig => {
    return { name, benchmark, agent, ignore_session_break: breaks === 'ignored', options: {}, range: zero };
  };
  const runs: RunConfig[] = names.flatMap((b) => [
    run(`demo-${b}-in-context`, b, 'chatbot', 'ignored'),
    run(`demo-${b}-new-session`, b, 'chatbot', 'kept'),
    run(`demo-${b}-notebook`, b, 'notebook', 'kept'),
  ]);
  for (const r of runs) rmSync(join(resultsDir(root), r.name), { recursive: true, force: true });
  io.out(
    'Demo: the bundled benchmarks on the built-in stand-in model, no API key needed.\n' +
      'The chatbot agent runs twice: with the whole conversation in context, and after a session switch that leaves it nothing;\n' +
      'the notebook agent keeps notes that outlive the switch.\n\n',
  );
  // The stand-in answers at once, so the Time Master need not leave real time before each wake-up.
  const config: Config = {
    ...parseConfig('{}').config,
    parallel: 2,
    time_master: { min_sleep_to_skip: 5, pre_wake_delay: 0, poll_interval: 0.05 },
  };
  const explanation =
    'With the conversation in context the chatbot can answer; after the switch it cannot, and the notebook answers from its notes: ' +
    'the gap is what the benchmark measures.';
  return execute(root, bundled, config, runs, io, undefined, { explanation, nextRun: 'demo-starter-notebook' });
}
