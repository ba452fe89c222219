/** `mmb view [--port N] [--host 127.0.0.1] [--open]`: the workspace's runs served on loopback until Ctrl-C. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { UsageError } from '../errors';
import type { Price } from '../report/cost';
import { resultsDir } from '../protocol/layout';
import { LOOPBACK_HOSTS, startViewServer, type ViewServer } from '../view/server';
import { shown, type ReportWorkspace } from '../workspace/results';
import { loadConfig, type Io } from './run';
import { registerWorkspaceSecrets } from '../workspaceSecrets';

export interface ViewCommandInput {
  ws: ReportWorkspace;
  port: string | undefined;
  host: string | undefined;
  /** `--open`: the default browser is started on the address. */
  open: 'browser' | 'none';
}

function portOf(value: string | undefined): number {
  const port = Number(value ?? 0);
  if (!/^\d{1,5}$/.test(value ?? '0') || port > 65535)
    throw new UsageError('--port needs a port number from 0 (the system picks one) to 65535, e.g. --port 8080');
  return port;
}

function hostOf(value: string | undefined): (typeof LOOPBACK_HOSTS)[number] {
  const host = (value ?? '127.0.0.1').toLowerCase();
  const loopback = LOOPBACK_HOSTS.find((h) => h === host);
  if (!loopback)
    throw new UsageError(
      `--host ${value!.slice(0, 60)} is not a loopback address: ` +
        'mmb view serves your results with no login but its token, so only to this machine (127.0.0.1, localhost or ::1).',
    );
  return loopback;
}

/** config.jsonc's prices, read fresh for each page; a config that does not parse gives none rather than no page. */
function pricesOf(ws: ReportWorkspace): () => Readonly<Record<string, Price>> {
  return () => {
    try {
      return existsSync(ws.configPath) ? loadConfig(ws.configPath).prices : {};
    } catch {
      return {};
    }
  };
}

/** The platform's opener of a URL, detached: the browser outlives nothing of ours. */
function openBrowser(url: string, io: Io): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command as string, args as string[], { detached: true, stdio: 'ignore' });
    child.on('error', () => io.err(`mmb: could not start a browser (${command}): open the address above.\n`));
    child.unref();
  } catch {
    io.err(`mmb: could not start a browser (${command}): open the address above.\n`);
  }
}

export async function viewCommand(input: ViewCommandInput, io: Io): Promise<number> {
  // What it prints is masked with the workspace's keys too (the pages are, in the server).
  registerWorkspaceSecrets(input.ws.configPath, io.env);
  const port = portOf(input.port);
  const host = hostOf(input.host);
  let server: ViewServer;
  try {
    server = await startViewServer({ ws: input.ws, prices: pricesOf(input.ws), port, host });
  } catch (e) {
    throw new UsageError(`cannot listen on ${host}:${port}: ${(e as Error).message.split('\n')[0]}`);
  }
  const results = shown(resultsDir(input.ws.root));
  io.out(
    `Serving the runs of ${results} at ${server.url}\nOpen it in a browser (the token is the key: keep it to yourself). Ctrl-C stops it.\n`,
  );
  if (input.open === 'browser') openBrowser(server.url, io);
  await new Promise<void>((resolve) => {
    if (io.signal?.aborted) resolve();
    io.signal?.addEventListener('abort', () => resolve());
  });
  await server.close();
  return 0;
}
