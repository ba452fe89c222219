/**
 * The misbehaviours of real models, named once: the chaos stand-in (`"model":
 * "stand-in:chaos?rate=0.1&behaviours=plain-text,refusal&seed=7"`) plays them on purpose, and
 * the engine names each one it sees in the run state and the report by the same name.
 */

/** Each misbehaviour, with what the engine answers it with. */
export const MISBEHAVIOURS = {
  'plain-text': "plain text instead of a tool call: the require_send_message hook's error",
  'hallucinated-user': 'a message that imitates or restates the assistant: the echo hook drops it and says why',
  'invalid-json': 'tool arguments that are no JSON: an error with a valid example',
  'unknown-tool': 'a tool that does not exist: an error naming the tools',
  'missing-argument': 'a required argument left out: an error naming it, with an example',
  'mistyped-argument': 'an argument of the wrong type: an error saying the type, with an example',
  'unknown-check': 'log_evaluation of a check id that does not exist: an error',
  'bad-score': 'a score of 11 or "ten": an error saying 0 to 10',
  'no-attempt': 'log_evaluation without `attempt`: taken as attempt 1, and said so',
  'early-next-phase': "next_phase before the phase's checks are graded: refused twice, naming them",
  'never-next-phase': 'a phase that never ends: a reminder at half the turn cap, then the cap',
  'false-told': 'facts_mark_told for facts her messages never told: refused, naming them',
  'long-message': 'a message over 20,000 characters: an error with the limit',
  'empty-reply': 'an empty reply: an error asking for a tool call',
  refusal: 'a refusal to play: an error saying it is a role-play, and what to call',
} as const;

export type Misbehaviour = keyof typeof MISBEHAVIOURS;
export const MISBEHAVIOUR_NAMES = Object.keys(MISBEHAVIOURS) as Misbehaviour[];

export const isMisbehaviour = (name: string): name is Misbehaviour => Object.hasOwn(MISBEHAVIOURS, name);

/**
 * Graders that are wrong on purpose, for the tests of the judge audit: they act on a judge's grades
 * and the stand-in persona's own `log_evaluation`, and the engine cannot see them (a lenient grade is
 * a valid call): only `mmb judge audit` and `mmb regrade` can.
 */
export const GRADING_BEHAVIOURS = {
  'lenient-judge': 'passes any answer on the topic, right or wrong: its κ falls and its vague-wrong pass rate rises',
  'harsh-judge': 'fails any answer that does not hold the correct answer word for word: its bias turns negative',
} as const;

export type GradingBehaviour = keyof typeof GRADING_BEHAVIOURS;
/** What the chaos stand-in can be told to play: a misbehaviour the engine answers, or a wrong grader. */
export type ChaosBehaviour = Misbehaviour | GradingBehaviour;
export const isGradingBehaviour = (name: string): name is GradingBehaviour => Object.hasOwn(GRADING_BEHAVIOURS, name);
const BEHAVIOUR_NAMES: readonly string[] = [...MISBEHAVIOUR_NAMES, ...Object.keys(GRADING_BEHAVIOURS)];
const isChaosBehaviour = (name: string): name is ChaosBehaviour => isMisbehaviour(name) || isGradingBehaviour(name);

/** The model name of the chaos stand-in, before its settings. */
export const CHAOS_MODEL = 'stand-in:chaos';

export interface ChaosSettings {
  /** The share of requests that misbehave, from 0 to 1. */
  rate: number;
  behaviours: ChaosBehaviour[];
  seed: number;
}

export const DEFAULT_CHAOS: ChaosSettings = { rate: 0.1, behaviours: MISBEHAVIOUR_NAMES, seed: 1107 };

/**
 * The chaos settings of a model name: undefined for a name that is not the chaos stand-in's, an
 * error text for one whose settings are wrong. `stand-in:chaos` alone is every behaviour at 10%.
 */
export function parseChaosModel(model: string): ChaosSettings | { error: string } | undefined {
  if (model !== CHAOS_MODEL && !model.startsWith(`${CHAOS_MODEL}?`)) return undefined;
  if (model.length > 1000) return { error: "the chaos model's name is longer than 1,000 characters" };
  const settings: ChaosSettings = { ...DEFAULT_CHAOS, behaviours: [...DEFAULT_CHAOS.behaviours] };
  for (const pair of model
    .slice(CHAOS_MODEL.length + 1)
    .split('&')
    .filter(Boolean)) {
    const [key, value = ''] = pair.split('=', 2) as [string, string?];
    if (key === 'rate') {
      const rate = Number(value);
      if (!(rate >= 0 && rate <= 1) || value === '') return { error: `rate=${value.slice(0, 40)} must be a number from 0 to 1` };
      settings.rate = rate;
    } else if (key === 'seed') {
      if (!/^\d{1,9}$/.test(value)) return { error: `seed=${value.slice(0, 40)} must be a whole number` };
      settings.seed = Number(value);
    } else if (key === 'behaviours') {
      const names = value.split(',').filter(Boolean);
      const unknown = names.filter((name) => !isChaosBehaviour(name));
      if (unknown.length || names.length === 0) {
        const given = unknown.map((name) => `"${name.slice(0, 40)}"`).join(', ') || '(none given)';
        return { error: `unknown behaviour ${given}; the behaviours are ${BEHAVIOUR_NAMES.join(', ')}` };
      }
      settings.behaviours = names as ChaosBehaviour[];
    } else {
      return { error: `unknown setting "${key.slice(0, 40)}": the settings are rate, behaviours, seed` };
    }
  }
  return settings;
}
