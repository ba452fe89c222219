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

/**
 * A reader that stops reading (`mmb check … | head -1`, `| true`) closes the pipe: the next write fails with EPIPE,
 * which unhandled is a Node stack trace. The command stops there, quietly and with status 0, as `git log | head` does;
 * a run so stopped resumes like one killed (the journal is the truth), its agents' programs ended on exit.
 */
function stopQuietlyWhenTheReaderCloses(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

stopQuietlyWhenTheReaderCloses(process.stdout);
stopQuietlyWhenTheReaderCloses(process.stderr);
const printed = helpOrVersion(process.argv.slice(2));
if (printed === undefined) (require('./main') as typeof Main).startCli();
else process.exitCode = printed;
