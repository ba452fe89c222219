/** `mmb --help`, `mmb help [<command>]`, `mmb <command> --help` and `mmb --version`: the option table's texts alone. */
import { commandHelp, usageText } from './helpText';
import { commandNamed, HELP_OPTIONS, VERSION_OPTIONS } from './options';
import { packageVersion } from './version';

/** The exit status once printed, else undefined (the command is not a help or version request). */
export function printHelpOrVersion(argv: readonly string[], io: { out: (text: string) => void }): number | undefined {
  const [command = '', ...rest] = argv;
  const among = (names: readonly string[], argument: string) => names.includes(argument);
  if (among(VERSION_OPTIONS, command)) {
    io.out(`${packageVersion()}\n`);
    return 0;
  }
  if (among(HELP_OPTIONS, command) || (command === 'help' && rest[0] === undefined)) {
    io.out(usageText());
    return 0;
  }
  if (command === 'help') {
    io.out(commandHelp(commandNamed(rest[0]!)));
    return 0;
  }
  if (!rest.some((argument) => among(HELP_OPTIONS, argument))) return undefined;
  io.out(commandHelp(commandNamed(command)));
  return 0;
}
