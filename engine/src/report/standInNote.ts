/**
 * The one line that says what a stand-in run's scores mean and what to try next. A first run on the
 * built-in stand-in (`mmb init`'s rehearsals, `mmb demo`) shows a chatbot at 2/10 after a session
 * switch: without this line that reads as a broken tool. It is plain text, one line, so that the
 * terminal summary, report.md, the HTML report and the editor each render it their own way and none
 * words it again.
 */

/** The stand-in's model name, plain or with settings (`stand-in:chaos?…`), as the run's usage is keyed (models/resolve.ts). */
const STAND_IN = /^stand-in(:|$)/;

/** What the note needs of a run: its id, and its persona's models (the keys of its usage). */
export interface StandInNoteRun {
  run: string;
  usage: Readonly<Record<string, unknown>>;
}

/** Whether the run's persona was the stand-in: no model read the agent's answers, a rule graded them. */
export function isStandInRun(run: Pick<StandInNoteRun, 'usage'>): boolean {
  const models = Object.keys(run.usage);
  return models.length > 0 && models.every((model) => STAND_IN.test(model));
}

/**
 * The note for a stand-in run, undefined for any other. `run` is the id the next step names; give
 * the first of several runs when one note stands for them all (the terminal summary).
 */
export function standInNote(run: StandInNoteRun): string | undefined {
  if (!isStandInRun(run)) return undefined;
  return (
    "A stand-in run: no model, so its scores show the benchmark at work, not an agent's quality. " +
    'The chatbot keeps nothing past a session switch, so its low scores after one are expected; ' +
    'the notebook keeps notes, and its scores show a memory at work. ' +
    `Next: mmb report ${run.run} --html, then a real model (docs/real-model.md).`
  );
}
