/**
 * `mmb init [folder]`: a workspace that works at once, from a global install as from the sources:
 * a `config.jsonc` whose rehearsals need no key (`rehearsal`, the notebook agent, whose notes outlive a
 * session switch, and `rehearsal-chatbot`, the chatbot, which keeps nothing past one), the bundled
 * benchmarks and AUTHORING.md.
 * Nothing the user already has is overwritten: each thing that exists is left alone and named.
 */
import { cpSync, lstatSync, mkdirSync, readdirSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { folderNameProblem } from '../../../scenario/src';
import { UsageError } from '../errors';
import { describeFsError, isBenchmarkFolder } from '../workspace/folders';

/** The longest folder argument taken: longer is a mistake (or a hostile script), not a path. */
const MAX_FOLDER_LENGTH = 1024;

const GUIDE_FILE = 'AUTHORING.md';

/**
 * The config `mmb init` writes. The persona is one for the whole file (config.jsonc has no
 * per-run persona), so the rehearsal can be key-free only while the persona is the stand-in;
 * the real run says so where the user uncomments it.
 */
export const INIT_CONFIG = `// The runs of this workspace: \`mmb run\` plays them all, \`mmb run <run-id>\` one of them.
// Benchmarks are the folders of benchmarks/ (AUTHORING.md there says how to write one);
// results land in results/<run-id>/. API keys never go in this file: "api_key_env" names the
// environment variable that holds one.
{
  // The persona who talks to the agent under test and quizzes it, for every run of this file.
  // "stand-in" is the built-in model: no key, no network, no cost. For real runs, give it a
  // real model as well, e.g.
  //   "persona": { "model": "deepseek-v4-flash", "base_url": "https://api.deepseek.com/v1", "api_key_env": "DEEPSEEK_API_KEY" },
  "persona": { "model": "stand-in" },
  "runs": {
    // A real run: uncomment these two lines, export DEEPSEEK_API_KEY, then \`mmb run chatbot-deepseek\`.
    // Any OpenAI-compatible server works: set its "model", "base_url" and the "api_key_env" to read.
    // "chatbot-deepseek": { "benchmark": "starter", "agent": "chatbot",
    //   "agent_model": { "model": "deepseek-v4-flash", "base_url": "https://api.deepseek.com/v1", "api_key_env": "DEEPSEEK_API_KEY" } },

    // \`mmb run\` plays both rehearsals of the starter benchmark, agents on the stand-in too (no "agent_model"):
    // \`rehearsal\` is the notebook agent, whose notes outlive the session switch: a memory at work.
    "rehearsal": { "benchmark": "starter", "agent": "notebook" },
    // \`rehearsal-chatbot\` is a chatbot, which keeps nothing past the switch: its low scores after it are expected.
    "rehearsal-chatbot": { "benchmark": "starter", "agent": "chatbot" }
  }
}
`;

/** What `mmb init` did: the lines it prints, and whether anything is new. */
interface InitOutcome {
  lines: string[];
  created: number;
}

export function initCommand(folder: string | undefined, cwd: string, bundled: string, out: (text: string) => void): number {
  const target = usableTarget(folder ?? '.', cwd);
  const shown = (path: string) => shownPath(path, cwd);
  const outcome: InitOutcome = { lines: [], created: 0 };
  // benchmarks/ first: when a file stands there, the target is unusable and nothing is written.
  const benchmarksDir = join(target, 'benchmarks');
  makeFolder(benchmarksDir, shown(benchmarksDir));
  writeOnce(join(target, 'config.jsonc'), shown, outcome, (path) => writeFileSync(path, INIT_CONFIG, { flag: 'wx' }));
  for (const name of bundledBenchmarkNames(bundled)) {
    writeOnce(join(benchmarksDir, name), shown, outcome, (path) =>
      cpSync(join(bundled, name), path, { recursive: true, errorOnExist: true, force: false }),
    );
  }
  writeOnce(join(benchmarksDir, GUIDE_FILE), shown, outcome, (path) =>
    cpSync(join(bundled, GUIDE_FILE), path, { errorOnExist: true, force: false }),
  );
  const next = target === cwd ? '`mmb run`' : `\`cd ${shown(target)} && mmb run\``;
  const closing = outcome.created
    ? `Next: ${next} plays the starter benchmark on the stand-in model (no key, no cost), ` +
      'with the notebook agent (`rehearsal`) and the chatbot (`rehearsal-chatbot`) side by side.'
    : 'Nothing new: the workspace has everything `mmb init` writes.';
  out(`${outcome.lines.join('\n')}\n${closing}\n`);
  return 0;
}

/** The folder to initialise, created if missing; a usage error when it is a file or cannot be made. */
function usableTarget(folder: string, cwd: string): string {
  if (folder.length > MAX_FOLDER_LENGTH || /\p{Cc}/u.test(folder)) {
    throw new UsageError(`the folder to initialise must be a path of at most ${MAX_FOLDER_LENGTH} characters with no control characters.`);
  }
  const target = resolve(cwd, folder);
  makeFolder(target, shownPath(target, cwd));
  return target;
}

/** A path as messages show it: relative to the current folder when inside it, else absolute. */
function shownPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}

/** Makes a folder (and its parents) unless it is there; a usage error when something else is. */
function makeFolder(path: string, shown: string): void {
  const found = statOrUndefined(path);
  if (found && !found.isDirectory())
    throw new UsageError(`${shown} is a file, not a folder: give a folder, or a path that does not exist yet.`);
  if (found) return;
  try {
    mkdirSync(path, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOTDIR' || code === 'EEXIST' ? 'a file stands in its path' : describeFsError(e);
    throw new UsageError(`cannot make the folder ${shown}: ${why}; give a folder, or a path that does not exist yet.`);
  }
}

/** The stat of a path, undefined when nothing is there or a file stands in its way (ENOTDIR). */
function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Creates one thing unless something is at its path already, and says which. */
function writeOnce(path: string, shown: (path: string) => string, outcome: InitOutcome, create: (path: string) => void): void {
  if (exists(path)) {
    outcome.lines.push(`${shown(path)} exists already: left as it is.`);
    return;
  }
  try {
    create(path);
  } catch (e) {
    throw new UsageError(`cannot create ${shown(path)}: ${describeFsError(e)}.`);
  }
  outcome.lines.push(`Created ${shown(path)}.`);
  outcome.created++;
}

/** Whether anything, even a dangling link, is at the path: lstat does not follow the link. */
function exists(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** The benchmarks the package ships: folders with a benchmark.json whose names are folder names. */
function bundledBenchmarkNames(bundled: string): string[] {
  let names: string[];
  try {
    names = readdirSync(bundled);
  } catch (e) {
    throw new UsageError(`the bundled benchmarks are missing (${bundled}: ${describeFsError(e)}); reinstall MarathonMemBench.`);
  }
  return names.filter((name) => folderNameProblem(name) === undefined && isBenchmarkFolder(join(bundled, name))).sort();
}
