/**
 * The help `mmb` prints, from the table of commands in `options.ts`: the usage of `mmb --help` and
 * each command's `--help`, long option texts wrapped under their own column.
 */
import { COMMANDS, EXIT, type CommandSpec, type OptionSpec } from './options';

/** Where `mmb --help` starts a command's help: after its name and synopsis and at least two spaces. */
const COMMAND_COLUMN = 44;

/** The usage text of `mmb --help`, from the table. */
export function usageText(): string {
  const lines = ['Usage: mmb <command> [options]', '', 'Commands:'];
  for (const command of COMMANDS) {
    const head = `${command.name} ${command.synopsis}`.trimEnd();
    // A synopsis too long for its column has a line of its own, its help below in the column: the two never run together.
    if (head.length < COMMAND_COLUMN - 1) lines.push(...wrapped(`  ${head.padEnd(COMMAND_COLUMN)}`, command.help));
    else lines.push(`  ${head}`, ...wrapped(' '.repeat(COMMAND_COLUMN + 2), command.help));
    // Options already in the synopsis (`--config <file>`, `--seed N`) are not listed twice.
    const listed = command.options.filter((o) => !command.synopsis.includes(o.name));
    const shown = listed.map(optionText);
    const width = Math.max(0, ...shown.map((s) => s.length)) + 3;
    listed.forEach((option, i) => lines.push(...wrapped(`      ${shown[i]!.padEnd(width)}`, option.help)));
  }
  lines.push(
    '',
    '`mmb <command> --help` (or `mmb help <command>`) says more about one; `mmb --version` prints the version.',
    '',
    'Exit status: 0 done, 1 errors found, a run crashed or a threshold missed, 2 a usage or config problem, ' +
      '75 the disk is full or read-only',
    '(free space, or make it writable, and run again to resume), 130 stopped with Ctrl-C.',
    '',
  );
  return lines.join('\n');
}

/** `mmb <command> --help`: the synopsis, what it does, every option with its value, the exit statuses. */
export function commandHelp(command: CommandSpec): string {
  const synopsis = `mmb ${command.name} ${command.synopsis}`.trimEnd();
  const lines = [
    `Usage: ${synopsis}${command.options.some((o) => !command.synopsis.includes(o.name)) ? ' [options]' : ''}`,
    '',
    `${capitalized(command.help)}.`,
    '',
  ];
  const rows: [string, string][] = [...command.options.map((o): [string, string] => [optionText(o), o.help]), ['-h, --help', 'this help']];
  const width = Math.max(...rows.map(([left]) => left.length)) + 3;
  lines.push('Options:', ...rows.flatMap(([left, help]) => wrapped(`  ${left.padEnd(width)}`, help)), '');
  lines.push('Exit status:', ...(command.exits ?? [EXIT.done, EXIT.usage]).map((e) => `  ${String(e.code).padEnd(5)}${e.meaning}`), '');
  return lines.join('\n');
}

/** `--from <chapter.md>:<phase>`, `--compare <a> <b> ...`, `--json`: an option as the help shows it. */
function optionText(option: OptionSpec): string {
  return [option.alias ? `${option.alias}, ${option.name}` : option.name, option.value, option.words].filter(Boolean).join(' ');
}

/** The widest help line: long option texts wrap, under their own column, rather than run past a terminal. */
const HELP_WIDTH = 110;

/** `lead` then `text`, broken at spaces into lines of at most HELP_WIDTH, the later ones indented as wide as `lead`. */
function wrapped(lead: string, text: string): string[] {
  const room = Math.max(30, HELP_WIDTH - lead.length);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.map((part, i) => `${i === 0 ? lead : ' '.repeat(lead.length)}${part}`);
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
