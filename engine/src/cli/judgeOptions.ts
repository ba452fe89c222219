/** The row of `mmb judge` in the one table of commands (`options.ts` lists it with the others). */
import { MAX_AUDIT_REPEATS } from '../judge/auditPlan';
import { CONFIG, EXIT, type CommandSpec } from './commandSpec';

export const JUDGE_COMMAND: CommandSpec = {
  name: 'judge',
  synopsis: 'audit [--judge <model>] [--repeat N] [--set <file>...] [--json] [--html]',
  help:
    "audit a judge on the labelled grading sets (every benchmark's grading.jsonl): agreement with gold (exact, MAE, bias, κ, " +
    'pass/fail), lenient and harsh grades, a verbosity and an injection probe, test–retest, cost; resumable',
  options: [
    {
      name: '--judge',
      value: '<model>',
      example: 'stand-in',
      help:
        "the judge: persona (config.jsonc's persona model, the default), stand-in, stand-in:chaos?…, " +
        'or a key of config.jsonc\'s "judges"',
    },
    {
      name: '--repeat',
      value: 'N',
      example: '3',
      help: `grade every item N times (at most ${MAX_AUDIT_REPEATS}) for test–retest: how often a grade changes, and by how much`,
    },
    { name: '--set', words: '<file> ...', help: "audit on these grading sets (.jsonl, one item a line) instead of the benchmarks' own" },
    { name: '--json', help: 'every figure as one JSON document on stdout' },
    { name: '--html', help: 'a page of the figures and every disagreement: results/.judge/<audit-id>/audit.html' },
    { name: '--out', value: '<file>', example: 'audit.html', help: 'with --html: write the page there instead' },
    {
      name: '--fail-under-kappa',
      value: 'K',
      example: '0.8',
      help: "exit 1 when the judge's quadratic-weighted κ against gold is below K (for CI)",
    },
    {
      name: '--id',
      value: '<audit-id>',
      example: 'mini-nightly',
      help: "the audit's folder under results/.judge/ (default: the judge's name and a hash of the judge, the sets and N)",
    },
    CONFIG,
  ],
  exits: [
    { code: 0, meaning: 'the audit is done (and κ is not below --fail-under-kappa)' },
    { code: 1, meaning: "κ is below --fail-under-kappa, or the judge's endpoint failed: run again to resume" },
    EXIT.usage,
    EXIT.diskFull,
    EXIT.stopped,
  ],
};
