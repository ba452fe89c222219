/**
 * What the code lenses say, as plain values: the short name of the run a grade came from
 * (`phase 3-1`, `rehearsal`), the grade's one-line label, and the lenses above a phase heading,
 * which depend on whether config.jsonc has a run of the benchmark to run for real. No VS Code here,
 * so each wording is tested on plain values; lenses.ts only places them.
 */
import { repeatOf } from '../../engine/src/api';
import { shorten } from '../../scenario/src/plainText';
import type { LatestGrade } from './results';

/** A lens is one short line: at 1,000 px a chapter has room for about this many characters of a run name. */
const MAX_LENS_NAME = 24;

/** The command ids the phase lenses run (declared in package.json). */
export const PHASE_COMMANDS = {
  runPhase: 'marathonMemBench.runPhase',
  runFromHere: 'marathonMemBench.runFromHere',
  rehearse: 'marathonMemBench.rehearsePhase',
  addRun: 'marathonMemBench.addRun',
} as const;

/** A lens above a phase heading: its title (codicons allowed), the command it runs and its tooltip. */
export interface PhaseLensSpec {
  title: string;
  command: (typeof PHASE_COMMANDS)[keyof typeof PHASE_COMMANDS];
  tooltip: string;
}

/**
 * The name a lens gives the run of a grade: a phase run by its phase (`phase 3-1`, `from 2-1`), a
 * whole-benchmark rehearsal `rehearsal`, a run of config.jsonc by its name, cut in the middle when long.
 * The whole id is the lens's tooltip.
 */
export function lensRunName(id: string): string {
  const repeat = repeatOf(id);
  const base = repeat ? repeat.base : id;
  const suffix = repeat ? `#${repeat.index}` : '';
  const partial = /\.(phase|from)-(.+)-(\d+)(\.rehearsal)?$/.exec(base);
  if (partial) {
    const chapter = /^chapter(\d+)$/i.exec(partial[2]!)?.[1] ?? partial[2]!;
    return `${partial[1]} ${shorten(chapter, 12)}-${partial[3]}${suffix}`;
  }
  // `mmb run --benchmark max --rehearse` makes `max.rehearsal`: the benchmark is the chapter's own.
  if (/^[^.]+\.rehearsal$/.test(base)) return `rehearsal${suffix}`;
  return `${middleCut(base, MAX_LENS_NAME - suffix.length)}${suffix}`;
}

/** `rehearsal.phase-chapter3-1` → `rehear…ter3-1`: both ends of a long name tell runs apart. */
function middleCut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

/** `phase 3-1 · 0/10`, `rehearsal · 7/10 (2nd attempt)`: the run that gave the grade, then the grade. */
export function gradeLensLabel(grade: LatestGrade): string {
  const s = grade.grade;
  return `${lensRunName(grade.run)} · ${s.effective}/10${s.attempt === 2 ? ' (2nd attempt)' : ''}`;
}

/** The grade lens's tooltip: the run's whole id and what a click opens. */
export function gradeLensTooltip(grade: LatestGrade): string {
  const played = grade.phases ? ', which played some phases only' : '';
  return `${grade.grade.effective}/10 in ${grade.run}${played}. Click: what caught it, the trap writes and the agent's memory`;
}

/**
 * The lenses above a phase heading. With a run of the benchmark in config.jsonc, its agent can run
 * the phase for real; without one (Max after `mmb init`), a real run has nothing to run, so the
 * stand-in rehearsal comes first and the real runs are one lens that adds a run.
 */
export function phaseLensSpecs(benchmark: string, runsOfBenchmark: number): PhaseLensSpec[] {
  const rehearse: PhaseLensSpec = {
    title: '$(beaker) Rehearse',
    command: PHASE_COMMANDS.rehearse,
    tooltip: 'This phase on the stand-in model: no key, no cost',
  };
  if (runsOfBenchmark === 0)
    return [
      rehearse,
      {
        title: '$(add) Add a run for this benchmark…',
        command: PHASE_COMMANDS.addRun,
        tooltip: `config.jsonc has no run of ${benchmark}: pick an agent and a model, and the run is added there, ready to start`,
      },
    ];
  return [
    {
      title: '$(play) Run phase',
      command: PHASE_COMMANDS.runPhase,
      tooltip: 'A fresh run of just this phase, to see how the persona plays it',
    },
    { title: 'Run from here', command: PHASE_COMMANDS.runFromHere, tooltip: 'A fresh run from this phase to the end' },
    rehearse,
  ];
}
