/**
 * The processes of the agents' programs end with the run. Each program starts in a process group
 * of its own (its pid is the group's id), and its environment carries a mark, MMB_AGENT_GROUP,
 * random per start: ending it signals the group, and on Linux every process whose
 * `/proc/<pid>/environ` carries the mark too, which catches a daemon that left the group with
 * `setsid`. SIGTERM first, SIGKILL about a second later. Groups still alive when the engine exits
 * (a crash, a second Ctrl-C, SIGTERM) are killed by the exit handler.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The variable that marks every process an agent's program starts, for as long as it keeps its environment. */
export const AGENT_GROUP_VARIABLE = 'MMB_AGENT_GROUP';
/** How long the processes have between SIGTERM and SIGKILL. */
const TERM_GRACE_MS = 1000;
const POLL_MS = 50;

/** One program's processes: the group led by `pid`, and whatever carries `mark`. */
export interface AgentGroup {
  pid: number;
  mark: string;
}

const live = new Set<AgentGroup>();
let exitHandlerInstalled = false;

/** A fresh mark, to put in a program's environment under AGENT_GROUP_VARIABLE before it starts. */
export function newAgentGroupMark(): string {
  return `mmb-${process.pid}-${randomBytes(8).toString('hex')}`;
}

/** Remembers a started program's group, so that the engine's exit ends it if nothing else did. */
export function registerAgentGroup(group: AgentGroup): void {
  live.add(group);
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.on('exit', () => {
    for (const remaining of live) signalAgentGroup(remaining, 'SIGKILL');
  });
}

/** SIGTERM to the group and its marked processes, then SIGKILL once they are gone or the grace ran out. */
export async function endAgentGroup(group: AgentGroup): Promise<void> {
  signalAgentGroup(group, 'SIGTERM');
  const deadline = Date.now() + TERM_GRACE_MS;
  while (agentGroupAlive(group) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  signalAgentGroup(group, 'SIGKILL');
  live.delete(group);
}

/** Ends every program still running, all at once: for the engine's SIGTERM and SIGHUP. */
export async function endAllAgentGroups(): Promise<void> {
  await Promise.all([...live].map((group) => endAgentGroup(group)));
}

/** Sends `signal` to the group and to every marked process; what is gone already is skipped. */
export function signalAgentGroup(group: AgentGroup, signal: NodeJS.Signals): void {
  trySignal(-group.pid, signal);
  for (const pid of markedProcesses(group.mark)) trySignal(pid, signal);
}

function agentGroupAlive(group: AgentGroup): boolean {
  return trySignal(-group.pid, 0) || markedProcesses(group.mark).length > 0;
}

function trySignal(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * The pids whose environment carries `AGENT_GROUP_VARIABLE=mark`, on Linux; none elsewhere. A zombie's
 * environment reads as empty, so a killed process that nobody reaped is not counted as alive.
 */
export function markedProcesses(mark: string): number[] {
  if (process.platform !== 'linux') return [];
  const needle = Buffer.from(`${AGENT_GROUP_VARIABLE}=${mark}\0`);
  const inner = Buffer.from(`\0${AGENT_GROUP_VARIABLE}=${mark}\0`);
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = readEnviron(entry);
    if (environ && (environ.subarray(0, needle.length).equals(needle) || environ.includes(inner))) {
      found.push(Number(entry));
    }
  }
  return found;
}

function readEnviron(pid: string): Buffer | undefined {
  try {
    return readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
}
