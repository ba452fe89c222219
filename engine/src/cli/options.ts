/**
 * The commands of `mmb` and their options, declared once: the parser knows from this table
 * which options take a value, and the usage and each command's `--help` are printed from it.
 * `mmb run`'s options are the ones the editor's run requests produce (`protocol/runRequest.ts`;
 * a test round-trips them).
 */
import { didYouMeanSentence } from '../didYouMean';
import { CONFIG, DEMO_EXITS, EXIT, FAIL_UNDER, JUNIT, PASS_SCORE, RUN_EXITS, type CommandSpec } from './commandSpec';
import { IMPORT_COMMAND } from './importOptions';
import { JUDGE_COMMAND } from './judgeOptions';
import { DEFAULT_SEED } from '../generate/presets';
import { UsageError } from '../errors';
import { MAX_REPEATS, RUN_OPTIONS } from '../protocol/runRequest';
import { shorten } from '../../../scenario/src/plainText';

export type { CommandSpec, ExitStatus, OptionSpec } from './commandSpec';
export { EXIT } from './commandSpec';

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'check',
    synopsis: '[<benchmark-dir>... | config.jsonc]',
    help: 'validate benchmarks (default: benchmarks/* and config.jsonc here)',
    options: [
      { name: '--json', help: 'machine-readable diagnostics' },
      { name: '--coverage', help: 'facts, sheets told, checks and traps by type, trap-to-check distances' },
      { name: '--audit', help: "rehearse on the stand-in and check each trap's checks against the live sheets" },
    ],
    exits: [
      { code: 0, meaning: 'no errors (warnings allowed)' },
      { code: 1, meaning: 'errors found' },
      { code: 2, meaning: 'a usage problem or an unreadable folder' },
    ],
  },
  {
    name: 'run',
    synopsis: '[<run-id>...] [--config <file>]',
    help: 'run benchmarks as config.jsonc says (default: every run)',
    options: [
      CONFIG,
      { name: RUN_OPTIONS.restart, help: 'start the runs over (their results are deleted first)' },
      {
        name: RUN_OPTIONS.from,
        value: '<chapter.md>:<phase>',
        example: 'chapter1.md:1',
        help: 'a fresh run from this phase (named <run-id>.from-…)',
      },
      { name: RUN_OPTIONS.only, help: 'with --from: this phase only (named <run-id>.phase-…)' },
      {
        name: RUN_OPTIONS.rehearse,
        help:
          'persona and agent on the stand-in model, no key, no cost: alone, the whole benchmark (named <run-id>.rehearsal, a full run); ' +
          'with --from or --filter, those phases',
      },
      {
        name: RUN_OPTIONS.benchmark,
        value: '<name>',
        example: 'starter',
        help: 'with --rehearse: no run of config.jsonc needed (named <name>.rehearsal, or <name>.from-… with --from)',
      },
      {
        name: '--filter',
        value: '<terms>',
        example: 'chapter3,HIST',
        help:
          'a partial run of some chapters or checks (named <run-id>.filter-…): comma-separated terms, ' +
          'each a chapter (chapter3 or chapter3.md), a check id (20.16) or a check type (HIST); ' +
          'chapters pick where, checks and types pick what, both: the picked checks of the picked chapters; ' +
          'only the phases that hold them are played, and the persona asks only them',
      },
      {
        name: '--repeat',
        value: 'N',
        example: '3',
        help:
          `N independent runs of each run named, <run-id>#1 … <run-id>#N (at most ${MAX_REPEATS}), ` +
          'grouped as repeats in reports and trends',
      },
      {
        name: '--shard',
        value: 'I/N',
        example: '1/3',
        help:
          "this machine's share of the runs (repeats counted one by one), for CI split over N machines: " +
          'the k-th of them (from 0, in the order named, or config order) goes to shard k mod N + 1, the same on every machine; ' +
          '`mmb report --merge` brings the results folders back together',
      },
      {
        name: '--max-concurrency',
        alias: '-j',
        value: 'N',
        example: '4',
        help: 'runs played at once (overrides the config\'s "parallel")',
      },
      JUNIT,
      PASS_SCORE,
      FAIL_UNDER,
    ],
    exits: RUN_EXITS,
  },
  {
    name: 'report',
    synopsis: '[<run-id>...] [--config <file>]',
    help: "the runs' scores, or one run's full report entry",
    options: [
      CONFIG,
      { name: '--html', help: 'results/<run-id>/report.html: charts, imperfect answers, conversation, cost' },
      { name: '--compare', words: '<a> <b> ...', help: 'runs of one benchmark side by side: results/compare-<a>-vs-<b>.html' },
      {
        name: '--trends',
        words: '[<run-id>...]',
        help: "repeated runs by benchmark and agent, flaky checks marked; imported datasets' accuracy by type: results/trends.html",
      },
      { name: '--flaky', value: 'N', example: '3', help: 'with --trends: the spread of grades that makes a check flaky (default 3)' },
      { name: '--out', value: '<file>', example: 'report.html', help: 'write the HTML there instead' },
      { name: '--json', help: "every run's summary (the figures of summary.json) as one JSON document on stdout" },
      {
        name: '--merge',
        words: '<folder> ...',
        help:
          'bring in the results/ folders of other machines (after `mmb run --shard`): ' +
          'their runs are copied into results/, checked, and get their report.md entries',
      },
      JUNIT,
      PASS_SCORE,
      FAIL_UNDER,
    ],
    exits: [EXIT.done, { code: 1, meaning: 'a --fail-under threshold was missed' }, EXIT.usage],
  },
  {
    name: 'regrade',
    synopsis: '<run-id> [--judge <model>]... [--repeat N] [--config <file>]',
    help:
      "a run's graded checks graded again, blind, by other judges: their grades go beside the persona's " +
      '(results/<run-id>/regrades/), shown side by side, the disagreements first',
    options: [
      CONFIG,
      {
        name: '--judge',
        value: '<model>',
        example: 'stand-in',
        repeatable: true,
        help: 'a judge, once per judge: persona (the default), stand-in, stand-in:chaos?…, or a key of config.jsonc\'s "judges"',
      },
      { name: '--repeat', value: 'N', example: '3', help: 'each judge grades each check N times, for test–retest (default 1)' },
    ],
    exits: [
      EXIT.done,
      { code: 1, meaning: "a judge's endpoint failed: what it graded is kept, run again to resume" },
      EXIT.usage,
      EXIT.diskFull,
      EXIT.stopped,
    ],
  },
  {
    name: 'view',
    synopsis: '[--port N] [--host <address>] [--open]',
    help: 'serve the runs of results/ on loopback until Ctrl-C: a filterable index, run pages, compare, trends, live',
    options: [
      CONFIG,
      { name: '--port', value: 'N', example: '8080', help: 'the port (default: one the system picks)' },
      {
        name: '--host',
        value: '<address>',
        example: '127.0.0.1',
        help: 'a loopback address to listen on: 127.0.0.1 (default), localhost or ::1; any other is refused',
      },
      { name: '--open', help: 'open the address in the default browser' },
    ],
    exits: [{ code: 0, meaning: 'stopped with Ctrl-C' }, EXIT.usage],
  },
  { name: 'demo', synopsis: '', help: 'the bundled benchmarks on the built-in stand-in model', options: [], exits: DEMO_EXITS },
  {
    name: 'experiment',
    synopsis: 'filing [--seed N]',
    help: 'the filing-system experiment: three memory policies, one table',
    options: [{ name: '--seed', value: 'N', example: '1107', help: 'the seed of the simulated world' }],
  },
  {
    name: 'init',
    synopsis: '[<folder>]',
    help: 'a workspace to start from (default: here): config.jsonc with a key-free rehearsal run, the bundled benchmarks, AUTHORING.md',
    options: [],
    exits: [
      { code: 0, meaning: 'done: what was missing is created, what existed is left as it is' },
      { code: 2, meaning: 'the folder is unusable (a file, or cannot be made)' },
    ],
  },
  {
    name: 'new',
    synopsis: '<name> | agent <name> --kind process|module',
    help: 'a new benchmark folder under benchmarks/, or an agent under agents/ with its run in config.jsonc, to start from',
    options: [
      {
        name: '--kind',
        value: 'process|module',
        example: 'process',
        help: 'with agent: a program over the agent protocol (Python), or a JavaScript module',
      },
    ],
  },
  {
    name: 'generate',
    synopsis: '<name> [--preset max-like|hard|month] [--seed N] [--spec <world.jsonc>] | --extend <folder> [--months N]',
    help:
      'a benchmark generated from a world spec under benchmarks/<name>/ (docs/generate.md): every answer computed, ' +
      'the same folder for the same spec and seed; or a generated world carried on',
    options: [
      {
        name: '--preset',
        value: 'max-like|hard|month',
        example: 'hard',
        help: "the world to start from (default max-like: Max's counts); hard: 500+ facts, 60 chapters; month: 30 days",
      },
      {
        name: '--seed',
        value: 'N',
        example: '7',
        help: `the seed (default ${DEFAULT_SEED}: fixed, never random, so the same command gives the same folder, byte for byte)`,
      },
      { name: '--spec', value: '<world.jsonc>', example: 'world.jsonc', help: "a world spec: its keys override the preset's" },
      {
        name: '--extend',
        value: '<folder>',
        example: 'benchmarks/my-world',
        help: 'carry a generated world on (its world.jsonc says how): new chapters, benchmark.json rewritten',
      },
      {
        name: '--months',
        value: 'N',
        example: '1',
        help: 'with --extend: the months to append (a single-day world: blocks of its chapters; default 1)',
      },
    ],
    exits: [EXIT.done, EXIT.usage, EXIT.diskFull],
  },
  IMPORT_COMMAND,
  {
    name: 'conformance',
    synopsis: '<run-id> [--config <file>]',
    help: "the conformance suite against a run's agent, in a scratch folder: each requirement passes or says what to fix",
    options: [
      CONFIG,
      {
        name: '--memory',
        value: 'long-term|context-only',
        example: 'long-term',
        help: "what the agent claims to keep after a new conversation (default: its entry's claim)",
      },
    ],
    exits: [{ code: 0, meaning: 'every requirement holds' }, { code: 1, meaning: 'a requirement failed' }, EXIT.usage],
  },
  {
    name: 'doctor',
    synopsis: '<model> [--config <file>] [--json]',
    help:
      'can this model play the persona? tool calls, send_message, a short phase to next_phase, a grading sample, ' +
      "usage, prefix caching, a Max run's cost; <model>: persona, stand-in, or a key of config.jsonc's judges",
    options: [CONFIG, { name: '--json', help: 'the lines as one JSON document' }],
    exits: [{ code: 0, meaning: 'every capability passes' }, { code: 1, meaning: 'a capability failed' }, EXIT.usage],
  },
  JUDGE_COMMAND,
  {
    name: 'stand-in',
    synopsis: '[--port N]',
    help: 'serve the stand-in model (OpenAI-compatible) until Ctrl-C',
    options: [{ name: '--port', value: 'N', example: '8080', help: 'the port (default: one the system picks)' }],
    exits: [{ code: 0, meaning: 'stopped with Ctrl-C' }, EXIT.usage],
  },
];

/** The options every command takes besides its own: they print, they never run anything. */
export const HELP_OPTIONS = ['--help', '-h'] as const;
export const VERSION_OPTIONS = ['--version', '-V'] as const;

/** The command of that name, or a usage error that suggests the near ones. */
export function commandNamed(name: string): CommandSpec {
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return command;
  const suggestion = didYouMeanSentence(name, [...COMMANDS.map((c) => c.name), 'help']);
  throw new UsageError(`unknown command "${clip(name)}".${suggestion} See \`mmb --help\`.`);
}

/** A name typed by the user, cut to a length a message can quote. */
export function clip(text: string): string {
  const flat = text.replace(/\p{Cc}+/gu, ' ');
  return shorten(flat, 60);
}
