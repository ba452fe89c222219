/**
 * *Check this model* (the run view's title bar): `mmb doctor persona` as a process, with the
 * stored API keys in its environment, as runs are started; its lines stream into an output
 * channel and its verdict comes back as a notification.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { doctorArguments, doctorVerdict } from './doctorRun';
import { showToast, type ActOn } from './notify';
import type { RunsHub } from './runsHub';
import { ACTION, ActionError, errorToast } from './toasts';

/** `act` does the actions of its notifications (commands.ts's); *Show the output* is done here. */
export function registerCheckModel(wb: RunsHub, context: vscode.ExtensionContext, act: ActOn): vscode.Disposable[] {
  const channel = vscode.window.createOutputChannel('MarathonMemBench: Check this model');
  let running = false;
  const check = async (): Promise<void> => {
    // The key goes to config.jsonc's base_url: only a trusted workspace's config gets it.
    if (!vscode.workspace.isTrusted)
      throw new ActionError("Checking a model hands it the stored API key: trust this workspace's config.jsonc first.", [ACTION.trust]);
    if (running) throw new ActionError('a check of the model is already running.', [ACTION.showOutput], 'info');
    running = true;
    channel.clear();
    channel.show(true);
    let output = '';
    const child = spawn(
      process.execPath,
      [context.asAbsolutePath(join('dist', 'cli.js')), ...doctorArguments(join(wb.results.root, 'config.jsonc'))],
      { cwd: wb.results.root, env: { ...process.env, ...(await wb.secretEnv()), ELECTRON_RUN_AS_NODE: '1' } },
    );
    const show = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      channel.append(chunk.toString('utf8'));
    };
    child.stdout.on('data', show);
    child.stderr.on('data', show);
    const code = await new Promise<number | null>((resolve) => {
      child.on('error', (error) => {
        output += `mmb: ${error.message}\n`;
        resolve(-1);
      });
      child.on('close', (exit) => resolve(exit));
    });
    running = false;
    const verdict = doctorVerdict(code, output);
    void showToast({ ...verdict, subject: {} }, actHere);
  };
  const actHere: ActOn = async (action, subject) => (action === ACTION.showOutput ? channel.show(true) : act(action, subject));
  return [
    channel,
    vscode.commands.registerCommand('marathonMemBench.checkModel', async () => {
      try {
        await check();
      } catch (error) {
        void showToast(errorToast(error), actHere);
      }
    }),
  ];
}
