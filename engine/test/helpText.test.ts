/**
 * The help texts, in process: `mmb --help` never runs a synopsis into its help (`--kind process|modulea new
 * benchmark folder`), and a command's help names only options that command takes (`mmb help demo` named --fail-under).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandHelp, usageText } from '../src/cli/helpText';
import { COMMANDS } from '../src/cli/options';

const usageLines = usageText().split('\n');

test('mmb --help: each synopsis is followed by two spaces or a line break, then its help', () => {
  for (const command of COMMANDS) {
    const head = `  ${`${command.name} ${command.synopsis}`.trimEnd()}`;
    const at = usageLines.findIndex((line) => line.startsWith(`${head} `) || line === head);
    assert.ok(at >= 0, command.name);
    const firstWords = command.help.split(' ').slice(0, 3).join(' ');
    const line = usageLines[at]!;
    if (line === head) assert.equal(usageLines[at + 1], `${' '.repeat(46)}${usageLines[at + 1]!.trimStart()}`, command.name);
    const helpStart = line === head ? usageLines[at + 1]!.trimStart() : line.slice(head.length);
    assert.ok(helpStart.trimStart().startsWith(firstWords), `${command.name}: ${JSON.stringify(line)}`);
    if (line !== head) assert.match(helpStart, /^ {2,}\S/, `${command.name}: two spaces at least after the synopsis`);
  }
  const newLine = usageLines.findIndex((line) => line.startsWith('  new '));
  assert.deepEqual(usageLines.slice(newLine, newLine + 2), [
    '  new <name> | agent <name> --kind process|module',
    '                                              a new benchmark folder under benchmarks/, or an agent under',
  ]);
});

test('mmb --help: no line but a whole synopsis is wider than 110 columns', () => {
  const synopses = new Set(COMMANDS.map((command) => `  ${`${command.name} ${command.synopsis}`.trimEnd()}`));
  const wide = usageLines.filter((line) => line.length > 110 && !synopses.has(line) && !line.startsWith('Exit status:'));
  assert.deepEqual(wide, []);
});

test("a command's help names only options it takes (another command's, only after `mmb <that command>`)", () => {
  for (const command of COMMANDS) {
    // `mmb report --merge` in run's help is report's option, named as such.
    const own = commandHelp(command).replace(/`mmb [a-z-]+[^`]*`/g, (span) => (span.startsWith(`\`mmb ${command.name} `) ? span : ''));
    const taken = new Set([...command.options.map((option) => option.name), '--help']);
    const named = [...new Set(own.match(/--[a-z][a-z-]*/g) ?? [])];
    assert.deepEqual(
      named.filter((option) => !taken.has(option)),
      [],
      `mmb help ${command.name}`,
    );
  }
  assert.doesNotMatch(commandHelp(COMMANDS.find((command) => command.name === 'demo')!), /fail-under/);
});
