/**
 * A process agent's processes end with the run. Through the built CLI, an agent starts two daemons that sleep
 * for ten minutes holding its stdin and stdout open, one in its process group and one that left it with
 * `setsid`: `mmb run` returns long before they would wake (the test's own timeout is a minute), and afterwards
 * no process carries the agent's mark (MMB_AGENT_GROUP); the same when the engine gets SIGTERM mid-run. In the
 * sandbox even a daemon that cleared its environment (no mark) and left the group ends with the run.
 * Before, `mmb run` waited for the daemons to close the pipes, and they outlived it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { probeSandbox } from '../src/adapters/agentSandbox';
import { CLI, ROOT, tempDir, workspace } from './helpers';

/** The example agent behind two daemons: `sleep 600` in its group, and one in a session of its own (Node's detached is setsid). */
const DAEMON_AGENT = `import { spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
const hold = ['inherit', 'inherit', 'ignore'];
// In its group, deaf to SIGTERM (an ignored signal stays ignored across exec): SIGKILL ends it.
const inGroup = spawn('sh', ['-c', 'trap "" TERM; sleep 600'], { stdio: hold });
const escaped = spawn('sleep', ['600'], { stdio: hold, detached: true });
inGroup.unref();
escaped.unref();
// Out of the group and without the mark: only the sandbox's namespace ends it.
if (process.env.UNMARKED_SLEEP) {
  spawn('env', ['-i', 'setsid', 'sleep', process.env.UNMARKED_SLEEP], { stdio: hold, detached: true }).unref();
}
const record = JSON.stringify({ mark: process.env.MMB_AGENT_GROUP, pids: [inGroup.pid, escaped.pid] }) + '\\n';
if (process.env.DAEMONS_FILE) appendFileSync(process.env.DAEMONS_FILE, record);
// In the sandbox only its own folder is writable, and the run's reset empties it: written again and again.
else setInterval(() => writeFileSync(process.env.MMB_AGENT_HOME + '/daemons.jsonl', record), 100).unref();
await import('./my-agent.mjs');
`;

/** The unmarked daemon's sleep, a number no other process of the machine is likely to sleep. */
const UNMARKED_SLEEP = `600.${process.pid}`;

/** The pids of living processes that run `sleep UNMARKED_SLEEP`. */
function livingUnmarked(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').endsWith(`\0${UNMARKED_SLEEP}\0`) && living(pid);
      } catch {
        return false;
      }
    });
}

interface Started {
  mark: string;
  pids: number[];
}

/** Without the sandbox, the daemons write where the test says; in it, in the agent's own folder, the one it may write. */
function daemonWorkspace(where: { daemonsFile: string } | 'sandboxed'): string {
  const run = { benchmark: 'starter', agent: 'process', command: [process.execPath, 'agents/daemon-agent.mjs'] };
  const dir = workspace({
    runs: {
      daemons:
        where === 'sandboxed'
          ? { ...run, agent_sandbox: true, env_set: { UNMARKED_SLEEP: UNMARKED_SLEEP } }
          : { ...run, agent_sandbox: false, env_set: { DAEMONS_FILE: where.daemonsFile } },
    },
  });
  mkdirSync(join(dir, 'agents'));
  copyFileSync(join(ROOT, 'examples', 'agents', 'my-agent.mjs'), join(dir, 'agents', 'my-agent.mjs'));
  writeFileSync(join(dir, 'agents', 'daemon-agent.mjs'), DAEMON_AGENT);
  return dir;
}

function startMmb(
  args: string[],
  cwd: string,
): { child: ReturnType<typeof spawn>; done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
  });
  // 'close', not 'exit': the test too would wait on pipes a daemon held.
  const done = new Promise<{ code: number | null; output: string }>((resolve) => child.on('close', (code) => resolve({ code, output })));
  return { child, done };
}

function starts(file: string): Started[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Started);
}

/** The pids of living processes (not zombies) whose environment carries the mark, read from /proc here, not by the engine's code. */
function livingMarked(mark: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      const state = /\) (\S)/.exec(readFileSync(`/proc/${entry}/stat`, 'latin1'))?.[1];
      if (environ.includes(`MMB_AGENT_GROUP=${mark}`) && state !== 'Z') found.push(Number(entry));
    } catch {
      // Gone while we looked, or not ours to read.
    }
  }
  return found;
}

function living(pid: number): boolean {
  try {
    return !/\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

/** SIGKILL is on its way when `mmb` exits; the kernel takes a moment to deliver it. */
async function assertAllEnded(started: Started[]): Promise<void> {
  assert.ok(started.length >= 1, 'the agent started its daemons');
  const remaining = () => started.flatMap((s) => [...livingMarked(s.mark), ...s.pids.filter(living)]);
  for (let tries = 0; tries < 100 && remaining().length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(remaining(), [], 'no process of the agent outlives the run, the daemon that called setsid included');
}

const linuxOnly = process.platform === 'linux' ? {} : { skip: 'reads /proc' };

test(
  "a run ends while the agent's daemons hold its pipes: mmb run returns, and they end with it",
  { timeout: 60_000, ...linuxOnly },
  async () => {
    const daemonsFile = join(tempDir('mmb-daemons-'), 'daemons.jsonl');
    const { done } = startMmb(['run', 'daemons'], daemonWorkspace({ daemonsFile }));
    const result = await done;
    assert.equal(result.code, 0, result.output);
    await assertAllEnded(starts(daemonsFile));
  },
);

const probe = probeSandbox();
const sandboxed = process.platform !== 'linux' ? { skip: 'reads /proc' } : probe.works ? {} : { skip: `no sandbox here: ${probe.reason}` };

test('the same in the sandbox: mmb run returns, and nothing carrying the mark lives on', { timeout: 60_000, ...sandboxed }, async () => {
  const dir = daemonWorkspace('sandboxed');
  const result = await startMmb(['run', 'daemons'], dir).done;
  assert.equal(result.code, 0, result.output);
  // Pids inside the sandbox are its namespace's: only the mark is looked for out here.
  await assertAllEnded(starts(join(dir, 'results', 'daemons', 'agent', 'daemons.jsonl')).map(({ mark }) => ({ mark, pids: [] })));
  for (let tries = 0; tries < 100 && livingUnmarked().length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(livingUnmarked(), [], 'the daemon without the mark, out of the group, ended with the sandbox');
});

test("SIGTERM to the engine mid-run ends the agent's processes too", { timeout: 60_000, ...linuxOnly }, async () => {
  const daemonsFile = join(tempDir('mmb-daemons-'), 'daemons.jsonl');
  const dir = daemonWorkspace({ daemonsFile });
  const { child, done } = startMmb(['run', 'daemons'], dir);
  let finished = false;
  void done.then(() => {
    finished = true;
  });
  while (starts(daemonsFile).length === 0 && !finished) await new Promise((resolve) => setTimeout(resolve, 50));
  child.kill('SIGTERM');
  const result = await done;
  assert.equal(result.code, 143, result.output);
  assert.match(result.output, /mmb: SIGTERM: stopping now; the run resumes where it stopped\./);
  await assertAllEnded(starts(daemonsFile));
});
