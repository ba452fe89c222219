/**
 * *Add a run for this benchmark…*: a quick pick of the agent and of its model, a name, and the run
 * written into config.jsonc as one line after its last run (engine's `withRunAdded`: every comment
 * and every other byte kept), through the editor's buffer so an open, unsaved config.jsonc is not
 * overwritten. What is offered is decided in runEntry.ts; this file only asks and writes.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { parseConfig, type ModelConfig } from '../../scenario/src';
import { withRunAdded } from '../../engine/src/api';
import { agentChoices, freeRunName, modelChoices, runEntry, runNameProblem, type ModelChoice } from './runEntry';
import type { RunsHub } from './runsHub';
import { ACTION, ActionError } from './toasts';

/** What a config.jsonc made by *Add a run…* starts from, when the workspace has none. */
const NEW_CONFIG = '{\n  "persona": { "model": "stand-in" },\n  "runs": {\n  }\n}\n';

/** The run added: its name, and the key its model reads (offered to set before it starts). */
export interface AddedRun {
  name: string;
  about: string;
  keyEnv?: string;
}

/** Asks for an agent, a model and a name, and adds the run; undefined when the user backed out. */
export async function addRun(wb: RunsHub, benchmarkDir: string | undefined): Promise<AddedRun | undefined> {
  const benchmark = benchmarkDir ? basename(benchmarkDir) : await pickBenchmark(wb);
  if (!benchmark) return undefined;
  const config = wb.results.config();
  const agents = agentChoices(config);
  const agent = (
    await vscode.window.showQuickPick(
      agents.map((a) => ({ label: a.agent, description: a.description, choice: a })),
      { placeHolder: `The agent to test on ${benchmark}`, title: 'Add a run (1/3): agent' },
    )
  )?.choice;
  if (!agent) return undefined;
  let model: ModelChoice | undefined;
  if (agent.takesModel) {
    model = await pickModel(modelChoices(config), agent.agent);
    if (!model) return undefined;
  }
  const name = await vscode.window.showInputBox({
    title: 'Add a run (3/3): name',
    prompt: 'The run’s name in config.jsonc; its results go to results/<name>/',
    value: freeRunName(config, benchmark, agent.agent),
    validateInput: (value) => runNameProblem(wb.results.config(), value),
  });
  if (!name) return undefined;
  await writeRun(wb.results.root, name, runEntry(benchmark, agent, model));
  const about = `${benchmark} @ ${agent.agent}${model ? ` on ${model.label}` : ''}`;
  return { name, about, ...(model?.model?.api_key_env ? { keyEnv: model.model.api_key_env } : {}) };
}

async function pickBenchmark(wb: RunsHub): Promise<string | undefined> {
  const names = wb.benchmarkDirs().map((d) => basename(d));
  if (names.length === 0)
    throw new ActionError('no benchmark under benchmarks/ to add a run for: copy the bundled ones, or start one with mmb new.', [
      ACTION.copyBundled,
    ]);
  return vscode.window.showQuickPick(names, { placeHolder: 'The benchmark the run plays' });
}

const OTHER_MODEL = 'Another model…';

async function pickModel(choices: ModelChoice[], agent: string): Promise<ModelChoice | undefined> {
  const picked = await vscode.window.showQuickPick(
    [...choices.map((c) => ({ label: c.label, description: c.description, choice: c })), { label: OTHER_MODEL, description: '' }],
    { placeHolder: `The model ${agent} runs on`, title: 'Add a run (2/3): model' },
  );
  if (!picked) return undefined;
  if ('choice' in picked) return picked.choice;
  const model = await vscode.window.showInputBox({ title: 'The model’s name, as its server calls it', placeHolder: 'deepseek-v4-flash' });
  if (!model) return undefined;
  const baseUrl = await vscode.window.showInputBox({
    title: `${model}: the OpenAI-compatible server’s URL`,
    placeHolder: 'https://api.deepseek.com/v1',
    validateInput: (v) => (/^https?:\/\/\S+$/.test(v) ? undefined : 'An http(s) URL'),
  });
  if (!baseUrl) return undefined;
  const keyEnv = await vscode.window.showInputBox({
    title: `${model}: the environment variable that holds its API key (the key itself is never written)`,
    placeHolder: 'DEEPSEEK_API_KEY',
    validateInput: (v) => (v === '' || /^[A-Z_][A-Z0-9_]*$/.test(v) ? undefined : 'Capital letters, digits and _ only, or empty for none'),
  });
  if (keyEnv === undefined) return undefined;
  const config: ModelConfig = { model, base_url: baseUrl, ...(keyEnv ? { api_key_env: keyEnv } : {}) };
  return { label: model, description: baseUrl, model: config };
}

/** Adds the run to config.jsonc: in the editor's buffer (saved) when the file exists, else a new file. */
async function writeRun(root: string, name: string, entry: Record<string, unknown>): Promise<void> {
  const path = join(root, 'config.jsonc');
  if (!existsSync(path)) {
    writeFileSync(path, withRunAdded(NEW_CONFIG, name, entry), { flag: 'wx' });
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  const text = doc.getText();
  let updated: string;
  try {
    updated = withRunAdded(text, name, entry);
  } catch (e) {
    throw new ActionError(`config.jsonc cannot take the run: ${(e as Error).message}.`, [ACTION.openConfig]);
  }
  if (!parseConfig(updated).config.runs.some((r) => r.name === name))
    throw new ActionError(`config.jsonc cannot take the run ${name}: fix its problems first (the Problems panel lists them).`, [
      ACTION.openConfig,
    ]);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), updated);
  if (!(await vscode.workspace.applyEdit(edit)) || !(await doc.save()))
    throw new ActionError('config.jsonc could not be written: is it read-only?', [ACTION.openConfig]);
}
