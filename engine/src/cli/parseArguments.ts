/**
 * A command line taken apart by the table of commands in `options.ts`: which arguments are words,
 * which are options and their values, with a usage error for anything the command does not take.
 */
import { didYouMeanSentence } from '../didYouMean';
import { UsageError } from '../errors';
import { clip, COMMANDS, HELP_OPTIONS, type CommandSpec, type OptionSpec } from './options';

/** A command line taken apart by the table of its command. */
export interface ParsedArguments {
  command: string | undefined;
  /** The arguments that are neither options nor an option's value. */
  words: string[];
  /** Every option given, by its name (`--config` for `--config=x`), in order. */
  flags: string[];
  /** The value of an option; undefined without the option; throws when the option was given none. */
  option(name: string): string | undefined;
  /** The value of an option as given, unchecked, for options that check their value themselves. */
  valueAfter(name: string): string | undefined;
  /** Every value of a repeatable option (`--judge a --judge b`), in order; none without it. */
  values(name: string): string[];
}

/** An argument that names an option: `-x`, `--name`, `--name=value`; a lone `-` is a word. */
function isOption(argument: string): boolean {
  return argument.length > 1 && argument.startsWith('-');
}

/**
 * Splits a command line by its command's options: `--opt value` and `--opt=value` alike. Throws
 * `UsageError` for an option the command does not know (with the near names), a value given to a
 * flag, and an option that takes a value given twice, unless it is `repeatable`.
 */
export function parseArguments(argv: readonly string[]): ParsedArguments {
  const [command, ...rest] = argv;
  const spec = COMMANDS.find((c) => c.name === command);
  const words: string[] = [];
  const flags: string[] = [];
  const values = new Map<string, string | undefined>();
  const repeated = new Map<string, string[]>();
  for (let at = 0; at < rest.length; at++) {
    const argument = rest[at]!;
    if (!isOption(argument)) {
      words.push(argument);
      continue;
    }
    const equals = argument.startsWith('--') ? argument.indexOf('=') : -1;
    const given = equals < 0 ? argument : argument.slice(0, equals);
    const option = spec ? knownOption(spec, given) : undefined;
    const name = option?.name ?? given;
    flags.push(name);
    if (option?.value === undefined) {
      if (equals >= 0) throw new UsageError(`${name} takes no value: write ${name} alone (got ${clip(argument)}).`);
      continue;
    }
    if (values.has(name) && !option.repeatable) throw new UsageError(`${name} is given twice: give it once.`);
    const next = rest[at + 1];
    const value = equals >= 0 ? argument.slice(equals + 1) : next !== undefined && !isOption(next) ? rest[++at] : undefined;
    values.set(name, value);
    if (option.repeatable && !value) throw new UsageError(`${name} needs a value, as in ${name} ${option.example ?? '<value>'}.`);
    if (option.repeatable) repeated.set(name, [...(repeated.get(name) ?? []), value!]);
  }
  const option = (name: string): string | undefined => {
    if (!flags.includes(name)) return undefined;
    const value = values.get(name);
    const example = spec?.options.find((o) => o.name === name)?.example;
    if (!value) throw new UsageError(`${name} needs a value${example ? `, as in ${name} ${example} or ${name}=${example}` : ''}.`);
    return value;
  };
  return { command, words, flags, option, valueAfter: (name) => values.get(name), values: (name) => repeated.get(name) ?? [] };
}

/** The command's option of that name, or a usage error that suggests the near ones. */
function knownOption(command: CommandSpec, name: string): OptionSpec | undefined {
  const option = command.options.find((o) => o.name === name || o.alias === name);
  if (option || (HELP_OPTIONS as readonly string[]).includes(name)) return option;
  const suggestion = didYouMeanSentence(name, [...command.options.map((o) => o.name), '--help']);
  throw new UsageError(`unknown option ${clip(name)} for ${command.name}.${suggestion} See \`mmb ${command.name} --help\`.`);
}
