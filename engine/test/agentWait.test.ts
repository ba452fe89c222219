/**
 * No silent waits: a process agent that does not answer is shown waited on (`waiting for the
 * agent's reply: 0 s of 60`), a stop during the wait ends `mmb run` within a second and the run
 * resumes by awaiting the same send; an agent that lost its replies is named in one line at the
 * resume. The agent is a real program (fixtures/agents/wait-agent.mjs); the waits are shortened
 * by MMB_WAIT_NOTICE_MS.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCommand, type Io } from '../src/cli/run';
import { Progress } from '../src/cli/progress';
import { RunStopped } from '../src/errors';
import { agentTurn } from '../src/run/agentTurn';
import { FileRunStore } from '../src/run/store';
import { applyEvent, emptyState, type RunEvent } from '../src/state/runState';
import type { AgentAdapter, AgentMessage } from '../src/protocol/agent';
import { CLI, mmb, starter, workspace } from './helpers';

const AGENT = join(__dirname, 'fixtures', 'agents', 'wait-agent.mjs');

/** A workspace with one run of the wait agent on the starter benchmark, rehearsed by the stand-in persona. */
function waitWorkspace(agentEnv: Record<string, string> = {}): string {
  const dir = workspace({
    persona: { model: 'stand-in' },
    runs: { slow: { benchmark: 'starter', agent: 'process', command: ['node', 'agents/wait-agent.mjs'], env_set: agentEnv } },
  });
  mkdirSync(join(dir, 'agents'));
  copyFileSync(AGENT, join(dir, 'agents', 'wait-agent.mjs'));
  return dir;
}

interface Captured {
  io: Io;
  out: () => string;
  err: () => string;
}

function capture(signal: AbortSignal, onOut: (text: string) => void = () => undefined): Captured {
  let out = '';
  let err = '';
  const env = { ...process.env, MMB_WAIT_NOTICE_MS: '300', MMB_REPLY_TIMEOUT_MS: '60000' };
  const io: Io = {
    out: (s) => {
      out += s;
      onOut(out);
    },
    err: (s) => {
      err += s;
    },
    tty: false,
    env,
    signal,
  };
  return { io, out: () => out, err: () => err };
}

test('a silent agent is shown waited on; a stop during the wait ends mmb run within a second, and the run resumes', async () => {
  const dir = waitWorkspace();
  const controller = new AbortController();
  let stoppedAt = 0;
  const first = capture(controller.signal, (out) => {
    if (!stoppedAt && out.includes("slow: waiting for the agent's reply: 0 s of 60\n")) {
      stoppedAt = Date.now();
      controller.abort();
    }
  });
  const code = await runCommand({ ids: ['slow'], configPath: join(dir, 'config.jsonc') }, first.io);
  const tookMs = Date.now() - stoppedAt;
  assert.ok(stoppedAt > 0, `the wait was shown: ${first.out()}`);
  assert.equal(code, 130);
  assert.ok(tookMs < 1000, `mmb run ended ${tookMs} ms after the stop`);
  assert.match(first.err(), /run "slow": stopped; run it again to resume/);
  const stopped = new FileRunStore(join(dir, 'results', 'slow')).load()!;
  assert.equal(stopped.status, 'running');
  assert.equal(Object.keys(stopped.sends).length, 1);
  assert.equal(stopped.agentWait?.timeoutMs, 60_000);

  // The agent answers now: the resumed run awaits the same send (not sent twice) and plays to the end.
  writeFileSync(join(dir, 'agents', 'answer'), '');
  const second = capture(new AbortController().signal);
  assert.equal(await runCommand({ ids: ['slow'], configPath: join(dir, 'config.jsonc') }, second.io), 0, second.err());
  const finished = new FileRunStore(join(dir, 'results', 'slow')).load()!;
  assert.equal(finished.status, 'finished');
  assert.equal(finished.unanswered, 0);
  assert.equal(finished.agentWait, undefined);
  const firstSend = Object.values(stopped.sends)[0]!;
  assert.equal(finished.transcript[1]?.text, `Noted: ${firstSend.text.slice(0, 200)}`);
  const kept = JSON.parse(readFileSync(join(dir, 'results', 'slow', 'agent', 'state.json'), 'utf8')) as { keys: string[] };
  assert.equal(kept.keys.filter((key) => key === firstSend.key).length, 1);
});

test('mmb run, the real process: Ctrl-C during a wait on the agent exits within a second (130), and mmb run resumes it', async () => {
  const dir = waitWorkspace();
  const env = { ...process.env, MMB_WAIT_NOTICE_MS: '300', MMB_REPLY_TIMEOUT_MS: '60000' };
  const child = spawn(process.execPath, [CLI, 'run', 'slow'], { cwd: dir, env });
  let stdout = '';
  let stderr = '';
  let interruptedAt = 0;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!interruptedAt && stdout.includes("slow: waiting for the agent's reply: 0 s of 60\n")) {
      interruptedAt = Date.now();
      child.kill('SIGINT');
    }
  });
  const watchdog = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (exit) => resolve(exit)));
  clearTimeout(watchdog);
  const tookMs = Date.now() - interruptedAt;
  assert.ok(interruptedAt > 0, `the wait was shown: ${stdout}${stderr}`);
  assert.equal(code, 130, stderr);
  assert.ok(tookMs < 1000, `mmb exited ${tookMs} ms after Ctrl-C`);
  assert.match(stderr, /mmb: stopping \(a wait on a model or the agent at once, else after the current step; Ctrl-C again to quit/);
  writeFileSync(join(dir, 'agents', 'answer'), '');
  const again = mmb(['run', 'slow'], dir, env);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /^slow: resumed \(/m);
});

test('a resumed agent that lost its replies is named in one line, at once', async () => {
  const dir = waitWorkspace({ WAIT_AGENT_FORGETS: '1' });
  writeFileSync(join(dir, 'agents', 'answer'), '');
  const controller = new AbortController();
  const first = capture(controller.signal, (out) => {
    if (out.includes('graded')) controller.abort();
  });
  assert.equal(await runCommand({ ids: ['slow'], configPath: join(dir, 'config.jsonc') }, first.io), 130, first.err());
  const cursor = new FileRunStore(join(dir, 'results', 'slow')).load()!.agentCursor;
  assert.ok(cursor > 1);

  const started = Date.now();
  const second = capture(new AbortController().signal);
  assert.equal(await runCommand({ ids: ['slow'], configPath: join(dir, 'config.jsonc') }, second.io), 1);
  assert.ok(Date.now() - started < 10_000, 'no timeout was sat out');
  // A machine without bwrap adds the sandbox's notice: the error is the one line besides notices.
  const lines = second
    .err()
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('mmb: notice:'));
  assert.equal(lines.length, 1, second.err());
  assert.equal(
    lines[0],
    `mmb: run "slow" crashed: the agent "process" lost its replies: the run read up to message ${cursor} before it stopped, ` +
      `and the agent now has none (\`responses\` with \`after: ${cursor - 1}\`); an agent keeps its replies with its state, ` +
      'in its home folder, for a resumed run to find (docs/agent-protocol.md, "Keep your replies"). ' +
      'Fix the agent, then: mmb run slow --restart',
  );
});

test("the terminal line counts the wait on between its events: waiting for the agent's reply: 40 s of 300", () => {
  let out = '';
  const progress = new Progress((s) => (out += s), { terminal: true, width: 140 });
  progress.start('r1', starter());
  const state = emptyState();
  const event: RunEvent = {
    type: 'waiting',
    at: new Date(Date.now() - 2_000).toISOString(),
    callId: 't3-0',
    waitedMs: 38_000,
    timeoutMs: 300_000,
  };
  applyEvent(state, event);
  progress.event('r1', state, event);
  progress.stop();
  assert.match(out, /phase 0\/\d+ {2}checks 0\/\d+ {2}0 tok {2}waiting for the agent's reply: 40 s of 300\n$/);
  // A reply ends the wait the state shows.
  applyEvent(state, { type: 'reply', at: new Date().toISOString(), seq: 1, text: 'Hi' });
  assert.equal(state.agentWait, undefined);
});

test('agentTurn gives way to a stop at once, in any await on the agent', async () => {
  const never = new Promise<never>(() => undefined);
  const agents: Record<string, AgentAdapter> = {
    'a send that never returns': { ...silentAgent(), sendMessage: () => never },
    'a poll that never returns': { ...silentAgent(), getResponses: () => never },
    'an empty poll': silentAgent(),
  };
  for (const [what, agent] of Object.entries(agents)) {
    const controller = new AbortController();
    const state = emptyState();
    const events: RunEvent[] = [];
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    await assert.rejects(
      agentTurn(state, agent, 'c1', 'Hello', {
        replyTimeoutMs: 60_000,
        record: (event) => {
          applyEvent(state, event);
          events.push(event);
        },
        now: () => new Date().toISOString(),
        signal: controller.signal,
        waitNoticeMs: 50,
      }),
      RunStopped,
      what,
    );
    assert.ok(Date.now() - started < 400, `${what}: stopped in ${Date.now() - started} ms`);
    assert.deepEqual(
      events.map((e) => e.type),
      ['sent', 'waiting'],
      what,
    );
  }
});

function silentAgent(): AgentAdapter {
  return {
    quietPeriodMs: 100,
    pollIntervalMs: 20,
    createSession: async () => undefined,
    destroySession: async () => undefined,
    sendMessage: async () => undefined,
    getResponses: async (): Promise<AgentMessage[]> => [],
  };
}

test('a wait that cannot be journaled (a full disk) fails the turn with that error, never as a throw in a timer', async () => {
  const state = emptyState();
  const full = new Error('ENOSPC: no space left on device');
  const started = Date.now();
  await assert.rejects(
    agentTurn(state, silentAgent(), 'c1', 'Hello', {
      replyTimeoutMs: 60_000,
      record: (event) => {
        if (event.type === 'waiting') throw full;
        applyEvent(state, event);
      },
      now: () => new Date().toISOString(),
      waitNoticeMs: 50,
    }),
    full,
  );
  assert.ok(Date.now() - started < 1000);
});
