/** `next_phase`: the persona finishes a phase and gets the next one's instructions. */
import { formatWallClock } from '../../clock';
import { currentPhaseIndex, endPhaseIndex, enterPhase } from '../phaseEntry';
import { sheetNamed, type RunState } from '../../state/runState';
import { lastAnchor } from '../timeMaster';
import { SCENARIO_COMPLETE } from '../../persona/protocol';
import { fail, type PersonaTool } from './types';

/** How often `next_phase` is refused in one phase for ungraded checks before it lets her go on. */
const MAX_EARLY_REFUSALS = 2;

export const nextPhaseTool: PersonaTool = {
  name: 'next_phase',
  position: 2,
  description: 'Finish the current phase and get the instructions of the next one.',
  whenToUse: 'when you have done what the phase asks and graded its checks, to get the next phase.',
  noteForAuthors:
    'Refused while `vars.require_all_facts` has untold facts, twice while checks of the phase are ungraded, and, with ' +
    "`time_gate`, before the phase's last anchor. After the last phase the scenario is complete.",
  parameters: {},
  required: [],
  example: '{}',
  async handle(_args, { run, callId }) {
    const index = currentPhaseIndex(run);
    // The call that entered this phase, repeated after a resume: the same phase text again.
    if (run.state.phaseCallId === callId) return { content: await enterPhase(run, index, callId), effects: [] };
    const blocked = untoldRequired(run.state);
    if (blocked) return fail(blocked);
    const ungraded = run.order[index]!.phase.checks.map((check) => check.id).filter((id) => !run.state.grades[id]?.length);
    // Refused twice at most: a check she cannot get answered must not hold the run forever.
    if (ungraded.length && (run.state.earlyNextPhase ?? 0) < MAX_EARLY_REFUSALS) {
      return fail(
        `the checks ${ungraded.join(', ')} of this phase are not graded yet: ` +
          'ask each one, record its grade with log_evaluation, then call next_phase.',
        'early-next-phase',
      );
    }
    const deadline = run.options.benchmark.manifest?.time_gate ? lastAnchor(run.order[index]!.phase) : undefined;
    const clock = run.options.clock;
    if (deadline && clock.now() < deadline.at) {
      return fail(
        `it is ${formatWallClock(clock.now())}, and this phase's last action is at ${deadline.label}. ` +
          'Wait until then (`wait`), do it, then call next_phase.',
      );
    }
    if (index + 1 < endPhaseIndex(run)) return { content: await enterPhase(run, index + 1, callId), effects: [] };
    return { content: SCENARIO_COMPLETE, effects: [], completesScenario: true };
  },
};

/** Why `next_phase` must wait, naming the untold facts of the sheets `vars.require_all_facts` names. */
function untoldRequired(state: RunState): string | undefined {
  const required = state.vars.require_all_facts;
  const names = typeof required === 'string' ? [required] : Array.isArray(required) ? required.map(String) : [];
  const parts: string[] = [];
  for (const name of names) {
    const untold = sheetNamed(state, name)?.facts.filter((f) => !f.told) ?? [];
    if (untold.length) parts.push(`untold facts of \`${name}\`: ${untold.map((f) => f.id).join(', ')}`);
  }
  return parts.length
    ? `you cannot move on yet: ${parts.join('; ')}. Tell them, mark them with facts_mark_told, then call next_phase again.`
    : undefined;
}
