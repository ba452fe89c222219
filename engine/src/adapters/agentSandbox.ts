/**
 * The sandbox of a process agent's program (run key `agent_sandbox`). A program runs with the
 * user's rights, and the user's rights read `/proc/<pid>/environ` of every process of the user,
 * the engine's included, which holds the persona's key. Bubblewrap (`bwrap`) starts it in a pid
 * namespace of its own with a `/proc` of that namespace, so the engine is out of its view; the
 * file system read-only but for its own folder (MMB_AGENT_HOME) and a fresh `/tmp`; the network as
 * it is (its model is an HTTP endpoint). Whether bwrap works is probed once per process: it is
 * missing on most machines but Linux ones that installed it, and refused in containers that deny
 * namespaces.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** Where a program may write, and where it runs (read-only). */
export interface SandboxFolders {
  /** MMB_AGENT_HOME: the only folder it may write, besides its own `/tmp`. */
  home: string;
  /** The workspace, its working folder. */
  workspace: string;
}

/** What the probe found: bwrap works (at this path: a program's PATH need not find it), or why not, in one line. */
export type SandboxProbe = { works: true; bwrap: string } | { works: false; reason: string };

/** The namespaces and mounts every sandboxed program gets, the probe's included. */
const BASE_ARGUMENTS = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--tmpfs',
  '/tmp',
  '--unshare-pid',
  '--die-with-parent',
  '--new-session',
];
const PROBE_TIMEOUT_MS = 10_000;
const REASON_CHARS = 200;

let probed: SandboxProbe | undefined;

/** Whether `bwrap` from the engine's PATH starts a program in the sandbox here; asked once, then remembered. */
export function probeSandbox(): SandboxProbe {
  probed ??= runProbe();
  return probed;
}

function runProbe(): SandboxProbe {
  if (process.platform !== 'linux') return { works: false, reason: 'bubblewrap runs on Linux only' };
  const bwrap = onPath('bwrap');
  if (!bwrap) return { works: false, reason: 'bwrap is not installed (apt-get install bubblewrap)' };
  const result = spawnSync(bwrap, [...BASE_ARGUMENTS, 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  });
  const code = (result.error as NodeJS.ErrnoException | undefined)?.code;
  if (result.error) return { works: false, reason: `bwrap did not start: ${code ?? result.error.message}` };
  if (result.status === 0) return { works: true, bwrap };
  const said = (result.stderr ?? '').replace(/\s+/g, ' ').trim().slice(0, REASON_CHARS);
  return { works: false, reason: `bwrap failed here (${result.signal ?? `exit ${result.status}`})${said ? `: ${said}` : ''}` };
}

/**
 * Whether the program a command names can be started from `cwd` with that PATH, as spawn would find it. In the sandbox
 * bwrap starts it, and a missing program would be bwrap's exit instead of spawn's ENOENT: this asks first.
 */
export function programFound(program: string, cwd: string, path: string | undefined): boolean {
  if (program.includes('/')) return executable(resolve(cwd, program));
  return onPath(program, path) !== undefined;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable file of that name on a PATH (the engine's by default). */
function onPath(name: string, path = process.env.PATH): string | undefined {
  for (const folder of (path ?? '').split(delimiter)) {
    if (isAbsolute(folder) && executable(join(folder, name))) return join(folder, name);
  }
  return undefined;
}

/** The command that runs `command` in the sandbox: bwrap (the probe's path) and its arguments, then the program's. */
export function sandboxedCommand(bwrap: string, command: readonly string[], folders: SandboxFolders): string[] {
  return [
    bwrap,
    ...BASE_ARGUMENTS,
    // The workspace read-only over the fresh /tmp (a workspace may live there), then the home writable inside it.
    '--ro-bind',
    folders.workspace,
    folders.workspace,
    '--bind',
    folders.home,
    folders.home,
    '--chdir',
    folders.workspace,
    '--',
    ...command,
  ];
}
