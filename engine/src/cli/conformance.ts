/**
 * `mmb conformance <run-id>`: the conformance suite against the agent of a run of config.jsonc,
 * made exactly as the run would make it, in a scratch folder (the run's results are untouched).
 * One line per requirement, every one of them: pass, FAIL and what to fix, skip and why, or not run and why.
 */
import { dirname } from 'node:path';
import { adapterUsesStandIn } from '../adapters/registry';
import { registerRunSecrets } from '../secrets';
import { startStandIn } from '../standin/server';
import { UsageError } from '../errors';
import { conformanceSubject } from '../conformance/subject';
import { runConformance, type RequirementResult } from '../conformance/suite';
import { didYouMeanSentence } from '../didYouMean';
import { loadConfig, type Io } from './run';
import { unknownRunError } from './unknownRun';

export interface ConformanceInput {
  runId: string | undefined;
  configPath: string;
  memory: string | undefined;
}

const MARKS: Record<RequirementResult['outcome'], string> = { pass: 'pass', fail: 'FAIL', skip: 'skip', 'not-run': 'not run' };

export async function conformanceCommand(input: ConformanceInput, io: Io): Promise<number> {
  if (!input.runId) throw new UsageError('mmb conformance needs a run of config.jsonc: mmb conformance my-agent-run');
  if (input.memory !== undefined && input.memory !== 'long-term' && input.memory !== 'context-only')
    throw new UsageError(`--memory is long-term or context-only.${didYouMeanSentence(input.memory, ['long-term', 'context-only'])}`);
  const config = loadConfig(input.configPath);
  const run = config.runs.find((r) => r.name === input.runId);
  if (!run) throw unknownRunError([input.runId], config, input.configPath);
  // The persona's key too: an agent may print what it read of the engine's environment.
  registerRunSecrets({ persona: config.persona, runs: [run] }, io.env);
  const standIn = adapterUsesStandIn(run.agent, run.options) ? await startStandIn() : undefined;
  try {
    const subject = conformanceSubject({
      agent: run.agent,
      options: run.options,
      workspace: dirname(input.configPath),
      models: {
        env: io.env,
        ...(config.persona.api_key_env ? { personaKeyEnv: config.persona.api_key_env } : {}),
        ...(standIn ? { standInUrl: standIn.url } : {}),
      },
      ...(input.memory ? { memory: input.memory } : {}),
    });
    io.out(`Conformance of run ${run.name} (agent ${run.agent}, ${subject.memory} memory):\n`);
    const results = await runConformance(subject, (result) => {
      io.out(`  ${MARKS[result.outcome]}  ${result.requirement}${result.detail ? `: ${result.detail}` : ''}\n`);
    });
    const failed = results.filter((r) => r.outcome === 'fail').length;
    const notRun = results.filter((r) => r.outcome === 'not-run').length;
    const unchecked = notRun ? ` (${notRun} more not run because of them)` : '';
    io.out(
      failed
        ? `${failed} requirement${failed === 1 ? '' : 's'} failed${unchecked}: fix them, then run mmb conformance ${run.name} again.\n`
        : 'Every requirement holds: the agent is ready for mmb run.\n',
    );
    return failed ? 1 : 0;
  } finally {
    await standIn?.close();
  }
}
