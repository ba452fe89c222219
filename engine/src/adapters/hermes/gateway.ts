/**
 * A Hermes gateway the adapter starts: `hermes gateway run` in the foreground, in a process
 * group of its own (stopping it stops its children too), its API server on a loopback port of
 * its own, its model's key in its environment only (the persona's never).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { environmentWithoutPersonaKey } from '../processEnv';
import { HermesApi } from './api';
import { managedConfig, MODEL_KEY_VARIABLE } from './home';
import type { HermesCompression, HermesManaged } from './options';

/** Hermes 0.19.0 answers /health some 5–15 s after it starts on two cores. */
const START_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 15_000;

export interface StartedGateway {
  child: ChildProcess;
  url: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Writes the home's config and starts the gateway on it; resolves once its API server answers. */
export async function startGateway(
  home: string,
  managed: HermesManaged,
  compression: HermesCompression,
  logFile: string,
): Promise<StartedGateway> {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.yaml'), managedConfig(managed, compression));
  const port = await freePort();
  const log = openSync(logFile, 'a');
  const child = spawn(managed.bin, ['gateway', 'run'], {
    env: {
      // The user's installation as it is, with the engine's environment, but never the persona's key.
      ...environmentWithoutPersonaKey(process.env, managed.personaKeyEnv),
      // Its own HOME too: Hermes and the tools it runs read ~/.config and the like.
      HOME: home,
      HERMES_HOME: home,
      API_SERVER_ENABLED: 'true',
      API_SERVER_HOST: '127.0.0.1',
      API_SERVER_PORT: String(port),
      API_SERVER_KEY: managed.apiKey,
      [MODEL_KEY_VARIABLE]: managed.model.apiKey,
    },
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('error', (error) => reject(new Error(`could not start \`${managed.bin} gateway run\`: ${error.message}`)));
    child.once('exit', (code) =>
      reject(new Error(`\`${managed.bin} gateway run\` exited (code ${code}) before its API server answered: see ${logFile}`)),
    );
  });
  exited.catch(() => undefined);
  const url = `http://127.0.0.1:${port}`;
  const api = new HermesApi(url, managed.apiKey);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const ready = await Promise.race([api.health(), exited]);
    if (ready) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await stopGateway(child);
  throw new Error(`the Hermes gateway did not answer on ${url} within ${START_TIMEOUT_MS / 1000} s: see ${logFile}`);
}

/** Stops a gateway by its process group: SIGTERM (Hermes drains its turns), then SIGKILL. */
export function stopGateway(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      killGroup(pid, 'SIGKILL');
      resolve();
    }, STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      // Its children (tool processes) go with it.
      killGroup(pid, 'SIGKILL');
      resolve();
    });
    if (!killGroup(pid, 'SIGTERM')) {
      clearTimeout(timer);
      resolve();
    }
  });
}

/** Signals a process group; false when it is gone. */
export function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
