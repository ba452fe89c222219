/**
 * Runs as a JUnit XML document, for CI systems (GitHub, GitLab, Jenkins, Azure read it): one
 * `<testsuite>` per run, one `<testcase>` per check it plays, failing below the pass score with
 * the expected and the given answer; a check never graded is skipped, a crashed run (or one that
 * never started) adds an `<error>` case. The shape is the one of the JUnit schema CI tools follow
 * (windyroad/JUnit-Schema, `JUnit.xsd`, aggregated form): `testsuites` without attributes; each
 * `testsuite` with name, package, id, timestamp, hostname, tests, failures, errors, skipped, time,
 * then `properties`, the cases, `system-out`, `system-err`; each case with classname, name, time
 * and at most one of `skipped`, `failure`, `error` (these two with a `type`).
 */
import type { Benchmark } from '../../../scenario/src';
import type { Grade, RunState } from '../state/runState';
import { DEFAULT_PASS_SCORE, passes } from '../protocol/scores';
import { plannedChecks, summarize, textInRun } from './summary';
import { boundedXmlText, escapeXmlText, oneLine, xmlAttributes } from './xml';

/**
 * A run to report: its state and the benchmark it played, or one with no state to show (it could
 * not start, was stopped, or its files are damaged).
 */
export type JunitRun =
  | { kind: 'played'; state: RunState; benchmark: Benchmark }
  | { kind: 'not-started' | 'stopped' | 'damaged'; run: string; benchmark: string; problem: string };

export interface JunitOptions {
  /** A check passes from this standing grade (0–10). */
  passScore?: number;
  /** The machine the runs ran on, as the schema asks; `localhost` when unknown. */
  hostname?: string;
}

/** Bounds of what a case shows: a name and a message stay readable, a body stays a screenful or two. */
const MAX_NAME = 300;
const MAX_MESSAGE = 500;
const MAX_PART = 4000;

interface Case {
  classname: string;
  name: string;
  /** The case's one child element, if any: already escaped XML. */
  outcome?: { kind: 'failure' | 'error' | 'skipped'; xml: string };
}

/** The JUnit document of the runs, in their order. */
export function junitDocument(runs: readonly JunitRun[], options: JunitOptions = {}): string {
  const passScore = options.passScore ?? DEFAULT_PASS_SCORE;
  const hostname = oneLine(options.hostname ?? '', 200) || 'localhost';
  const suites = runs.map((run, id) => suiteXml(run, id, passScore, hostname));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('')}</testsuites>\n`;
}

function suiteXml(run: JunitRun, id: number, passScore: number, hostname: string): string {
  const played = run.kind === 'played';
  const name = played ? run.state.run : run.run;
  const benchmark = played ? run.state.benchmark : run.benchmark;
  const cases = played ? playedCases(run.state, run.benchmark, passScore) : [notStartedCase(run)];
  const count = (kind: string) => cases.filter((c) => c.outcome?.kind === kind).length;
  const attributes = xmlAttributes([
    ['name', oneLine(name, MAX_NAME) || 'run'],
    ['package', oneLine(benchmark, MAX_NAME) || 'benchmark'],
    ['id', id],
    ['timestamp', played ? timestamp(run.state.startedAt) : EPOCH],
    ['hostname', hostname],
    ['tests', cases.length],
    ['failures', count('failure')],
    ['errors', count('error')],
    ['skipped', count('skipped')],
    ['time', played ? seconds(run.state.activeMs) : '0'],
  ]);
  const body = cases.map(caseXml).join('');
  return `  <testsuite ${attributes}>\n${propertiesXml(run, passScore)}${body}    <system-out/>\n    <system-err/>\n  </testsuite>\n`;
}

function propertiesXml(run: JunitRun, passScore: number): string {
  const pairs: [string, string][] =
    run.kind === 'played'
      ? [
          ['benchmark', run.state.benchmark],
          ['agent', run.state.agent],
          ['status', run.state.status],
          ['average', averageOf(run)],
          ['pass_score', String(passScore)],
        ]
      : [
          ['benchmark', run.benchmark],
          ['status', run.kind],
          ['pass_score', String(passScore)],
        ];
  const lines = pairs.map(
    ([name, value]) =>
      `      <property ${xmlAttributes([
        ['name', name],
        ['value', oneLine(value, MAX_NAME)],
      ])}/>\n`,
  );
  return `    <properties>\n${lines.join('')}    </properties>\n`;
}

function averageOf(run: Extract<JunitRun, { kind: 'played' }>): string {
  const average = summarize(run.state, run.benchmark).average;
  return average === null ? 'none' : average.toFixed(2);
}

function caseXml(testCase: Case): string {
  const attributes = xmlAttributes([
    ['classname', testCase.classname],
    ['name', testCase.name],
    ['time', '0'],
  ]);
  return testCase.outcome
    ? `    <testcase ${attributes}>\n      ${testCase.outcome.xml}\n    </testcase>\n`
    : `    <testcase ${attributes}/>\n`;
}

/** Every check the run plays, in the benchmark's order, then grades of checks the benchmark no longer has, then the crash. */
function playedCases(state: RunState, benchmark: Benchmark, passScore: number): Case[] {
  const planned = plannedChecks(state, benchmark);
  const plannedIds = new Set(planned.map((c) => c.check.id));
  const cases = planned.map(({ check, file }): Case => {
    const type = check.type ? ` [${check.type}]` : '';
    // Date templates read as the run expanded them, as in report.md: `{{FUTURE:3:weeks}}` means nothing in CI.
    const testCase: Case = {
      classname: classname(state.benchmark, file),
      name: oneLine(`${check.id}${type} ${textInRun(state, check.question)}`, MAX_NAME),
    };
    return withGrade(testCase, standingGrade(state, check.id), textInRun(state, check.answer), passScore);
  });
  const orphans = Object.keys(state.grades)
    .filter((id) => !plannedIds.has(id))
    .sort();
  for (const id of orphans) {
    cases.push(
      withGrade(
        { classname: oneLine(state.benchmark, MAX_NAME) || 'benchmark', name: oneLine(`${id} (not in the benchmark now)`, MAX_NAME) },
        standingGrade(state, id),
        '',
        passScore,
      ),
    );
  }
  if (state.status === 'crashed') {
    const error = state.error ?? 'the run crashed';
    cases.push({
      classname: oneLine(state.benchmark, MAX_NAME) || 'benchmark',
      name: 'the run crashed',
      outcome: errorOutcome(error, 'crashed'),
    });
  }
  return cases;
}

function notStartedCase(run: Exclude<JunitRun, { kind: 'played' }>): Case {
  const name =
    run.kind === 'stopped' ? 'the run stopped' : run.kind === 'damaged' ? "the run's files are damaged" : 'the run did not start';
  return { classname: oneLine(run.benchmark, MAX_NAME) || 'benchmark', name, outcome: errorOutcome(run.problem, run.kind) };
}

/** The grade that stands (the last), read as an own key: a saved state is a file like any other. */
function standingGrade(state: RunState, id: string): Grade | undefined {
  return Object.hasOwn(state.grades, id) ? state.grades[id]?.at(-1) : undefined;
}

function withGrade(testCase: Case, grade: Grade | undefined, expected: string, passScore: number): Case {
  if (!grade) return { ...testCase, outcome: { kind: 'skipped', xml: `<skipped ${xmlAttributes([['message', 'never graded']])}/>` } };
  if (passes(grade.effective, passScore)) return testCase;
  const message = `score ${grade.effective}/10 (pass from ${passScore})${grade.attempt === 2 ? ', 2nd attempt' : ''}`;
  const body = [`expected: ${expected}`, `got: ${grade.answer}`, `comment: ${grade.comment}`]
    .map((part) => boundedXmlText(part, MAX_PART))
    .join('\n');
  return {
    ...testCase,
    outcome: {
      kind: 'failure',
      xml: `<failure ${xmlAttributes([
        ['message', message],
        ['type', 'below-pass-score'],
      ])}>${escapeXmlText(body)}</failure>`,
    },
  };
}

function errorOutcome(problem: string, type: string): Case['outcome'] {
  return {
    kind: 'error',
    xml: `<error ${xmlAttributes([
      ['message', oneLine(problem, MAX_MESSAGE)],
      ['type', type],
    ])}>${escapeXmlText(boundedXmlText(problem, MAX_PART))}</error>`,
  };
}

/** `<benchmark>.<chapter>`: the chapter's file without `.md`, as a test class of the benchmark. */
function classname(benchmark: string, file: string): string {
  return oneLine(`${benchmark}.${file.replace(/\.md$/i, '')}`, MAX_NAME);
}

const EPOCH = '1970-01-01T00:00:00';

/** The schema's timestamp: `YYYY-MM-DDTHH:MM:SS`, no zone (UTC here), no fraction. */
function timestamp(iso: string): string {
  const match = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.exec(iso);
  return match ? match[0] : EPOCH;
}

function seconds(ms: number): string {
  return Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : '0';
}
