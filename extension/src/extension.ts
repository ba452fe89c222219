/**
 * The extension's entry point: the language server for authoring, and, in a trusted workspace,
 * runs: the run view and a run's conversation, code lenses, score decorations, the Test
 * Explorer and the commands.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { registerCheckModel } from './checkModel';
import { Commands } from './commands';
import { editorMarks } from './editor';
import { RunPanel } from './panel';
import { runsStatusItem } from './statusItem';
import { BenchmarkTests } from './testing';
import { RunTree, runArgument } from './runTree';
import { ReportViews } from './views';
import { RunsIndexView } from './runsIndex';
import { findRoot, RunsHub } from './runsHub';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'markdown' },
      { scheme: 'file', pattern: '**/benchmark.json' },
      { scheme: 'file', pattern: '**/config.jsonc' },
    ],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{md,json,jsonc}') },
  };
  client = new LanguageClient('marathonMemBench', 'MarathonMemBench', serverOptions, clientOptions);
  // The runs do not need the language server: their views come up while it starts.
  const serverStarted = client.start();

  const root = findRoot();
  if (!root) return serverStarted;
  const wb = new RunsHub(context, root);
  const panel = new RunPanel(wb, context);
  const commands = new Commands(wb, context, (run) => panel.show(run));
  const views = new ReportViews(wb, context, commands.notifyError);
  const index = new RunsIndexView(wb, views, commands.notifyError);
  context.subscriptions.push(
    wb,
    panel,
    views,
    index,
    new RunTree(wb),
    ...commands.register(),
    ...registerCheckModel(wb, context, commands.act),
    ...views.register(),
    ...index.register(),
    vscode.commands.registerCommand('marathonMemBench.openPanel', (run?: unknown) => panel.show(runArgument(run))),
    ...editorMarks(wb, context),
    new BenchmarkTests(wb, commands.notifyError),
    runsStatusItem(wb),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void offerReload()),
  );
  await serverStarted;
}

/** The lenses come back by themselves once trust is granted; the Test Explorer's profiles need a reload. */
async function offerReload(): Promise<void> {
  const reload = 'Reload Window';
  const picked = await vscode.window.showInformationMessage(
    "MarathonMemBench: runs are on in this workspace now. Reload the window for the Test Explorer's run profiles.",
    reload,
  );
  if (picked === reload) await vscode.commands.executeCommand('workbench.action.reloadWindow');
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
