/** The notebook's prompts, kept as markdown beside this file (and copied beside the bundle by scripts/build.mjs). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type PromptName = 'system' | 'consolidation' | 'compaction';

const cache = new Map<PromptName, string>();

export function notebookPrompt(name: PromptName): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(join(__dirname, `notebook-${name}.md`), 'utf8').trim();
    cache.set(name, text);
  }
  return text;
}
