/**
 * The `mmb` executable (`dist/cli.js`). Help and version come from the option table alone, so
 * `mmb --help` compiles none of the engine; every other command loads `main.ts` (in the bundle
 * the file `dist/cli-main.js` beside this one, as scripts/build.mjs maps it) and starts it.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a load on demand is the point of this file. */
import { printHelpOrVersion } from './help';
import type * as Main from './main';

function helpOrVersion(argv: readonly string[]): number | undefined {
  if (argv.length === 0) return undefined;
  try {
    // Static texts: nothing here holds a secret to mask.
    return printHelpOrVersion(argv, { out: (text) => process.stdout.write(text) });
  } catch {
    // An unknown command or option asking for help: main.ts says what is wrong, as for any command.
    return undefined;
  }
}

const printed = helpOrVersion(process.argv.slice(2));
if (printed === undefined) (require('./main') as typeof Main).startCli();
else process.exitCode = printed;
