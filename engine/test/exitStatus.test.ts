/**
 * Exit 70 ("internal error", with a stack trace) is left to the project's own bugs: every error
 * class `errors.ts` exports, found from the module's exports and not from a list typed here, has
 * its row in `cli/exitStatus.ts` and ends `mmb` with one line on stderr.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as errors from '../src/errors';
import { EXIT_STATUS_TABLE, INTERNAL_ERROR_EXIT } from '../src/cli/exitStatus';
import { failureExit } from '../src/cli/main';

type AnyErrorClass = new (...args: string[]) => Error;

/** Every class errors.ts exports that makes errors. */
const ERROR_CLASSES: [string, AnyErrorClass][] = Object.entries(errors as Record<string, unknown>).flatMap(([name, value]) =>
  typeof value === 'function' && value.prototype instanceof Error ? [[name, value as AnyErrorClass]] : [],
);

/** What `mmb` prints and returns for the error, with the command and its arguments as typed. */
function ended(error: Error, argv: string[] = ['run']): { status: number; out: string; err: string } {
  let out = '';
  let err = '';
  const status = failureExit(error, argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { status, out, err };
}

test("errors.ts exports error classes, the agent's start failure among them", () => {
  assert.ok(ERROR_CLASSES.length >= 10, ERROR_CLASSES.map(([name]) => name).join(', '));
  assert.ok(ERROR_CLASSES.some(([name]) => name === 'AgentStartFailure'));
});

for (const [name, ErrorClass] of ERROR_CLASSES) {
  test(`${name}: its own row of the exit table, a status other than 70, one line without a stack`, () => {
    assert.ok(
      EXIT_STATUS_TABLE.some((row) => row.error === ErrorClass),
      `${name} has a row of its own in cli/exitStatus.ts`,
    );
    // Every class of errors.ts takes a message (or a path) first; a second string is a code where one is asked for.
    const error = new ErrorClass('what went wrong, said once', 'CODE');
    const { status, out, err } = ended(error);
    assert.notEqual(status, INTERNAL_ERROR_EXIT);
    assert.ok(status > 0, `${name} is a failure`);
    assert.equal(out, '');
    assert.match(err, /^mmb: [^\n]+\n$/, `${name}: one line: ${err}`);
    assert.doesNotMatch(err, /internal error|\bat .*:\d+:\d+/);
    // A message of several lines (an agent's words) stays one line; a usage or config problem says each of its problems on a line.
    const spread = ended(new ErrorClass('first line\n    at not-a-frame (x.js:1:1)\nthird line', 'CODE'));
    const lines = spread.err.trimEnd().split('\n');
    if (ErrorClass === errors.UsageError || ErrorClass === errors.ConfigError) assert.equal(lines.length, 3, spread.err);
    else assert.equal(lines.length, 1, `${name}: ${spread.err}`);
  });
}

test('an error of no class of errors.ts is a bug: thrown on, for the CLI to end with 70', () => {
  assert.throws(() => ended(new TypeError('grades.at is not a function')), TypeError);
});

test('a usage problem of a command asked for --json is JSON on stdout, as before', () => {
  const { status, out, err } = ended(new errors.UsageError('no run "x"'), ['report', '--json']);
  assert.equal(status, 2);
  assert.equal(err, '');
  assert.deepEqual(JSON.parse(out), { error: 'no run "x"' });
});
