/**
 * The API key commands: a key is stored in the editor's secret storage under the environment
 * variable config.jsonc names in `api_key_env`, and handed only to the engine processes.
 */
import * as vscode from 'vscode';
import type { RunsHub } from './runsHub';

/** The env variable names config.jsonc reads keys from, then the ones stored before. */
function keyNames(wb: RunsHub): string[] {
  const config = wb.results.config();
  const names = new Set<string>();
  if (config.persona.api_key_env) names.add(config.persona.api_key_env);
  for (const r of config.runs) {
    for (const v of Object.values(r.options)) {
      const env = (v as { api_key_env?: unknown } | undefined)?.api_key_env;
      if (typeof env === 'string') names.add(env);
    }
  }
  for (const n of wb.secretNames()) names.add(n);
  return [...names];
}

/** Stores a key; `missing`, the variable a failed run lacked, is offered first. Returns the variable stored. */
export async function setApiKey(wb: RunsHub, missing?: string): Promise<string | undefined> {
  const known = keyNames(wb);
  const names = missing && /^[A-Z_][A-Z0-9_]{0,127}$/.test(missing) ? [missing, ...known.filter((n) => n !== missing)] : known;
  const other = 'Another variable…';
  let name = await vscode.window.showQuickPick([...names, other], {
    placeHolder: 'The environment variable the key goes in (config.jsonc names it in api_key_env)',
  });
  if (!name) return undefined;
  if (name === other) {
    name = await vscode.window.showInputBox({
      prompt: 'Variable name',
      placeHolder: 'OPENROUTER_API_KEY',
      validateInput: (v) => (/^[A-Z_][A-Z0-9_]*$/.test(v) ? undefined : 'Capital letters, digits and _ only'),
    });
    if (!name) return undefined;
  }
  const value = await vscode.window.showInputBox({
    prompt: `The value of ${name}: kept in the editor's secret storage, given only to the engine processes`,
    password: true,
    ignoreFocusOut: true,
  });
  if (!value) return undefined;
  await wb.storeSecret(name, value);
  // The caller says it is stored, with *Start again* for the runs that could not start without it.
  return name;
}

/** Forgets a stored key. */
export async function clearApiKey(wb: RunsHub): Promise<void> {
  const name = await vscode.window.showQuickPick(wb.secretNames(), { placeHolder: 'The key to forget' });
  if (!name) return;
  await wb.deleteSecret(name);
}
