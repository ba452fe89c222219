/**
 * The system prompt's list of tools ("# Your tools" in engine/src/persona/system-prompt.md), one
 * line a tool from its `whenToUse`, so that a new tool's file says what the prompt says of it.
 * `scripts/schemas.ts` writes it between its markers (lines the model never reads:
 * `persona/prompt.ts` drops comment lines); `engine/test/tools.test.ts` fails while it differs.
 */
import { withGeneratedBlock } from '../../generatedBlock';
import { PERSONA_TOOLS } from './index';
import type { PersonaTool } from './types';

/** Where the list is written, from the repository's root. */
export const SYSTEM_PROMPT_PATH = 'engine/src/persona/system-prompt.md';

export const PROMPT_TOOLS_START = "<!-- generated:persona-tools by scripts/schemas.ts from each tool's whenToUse; do not edit -->";
export const PROMPT_TOOLS_END = '<!-- /generated:persona-tools -->';

/** The list with its markers, in the order the model sees the tools. */
export function promptToolsList(tools: Readonly<Record<string, PersonaTool>> = PERSONA_TOOLS): string {
  const lines = Object.values(tools).map((tool) => `- \`${tool.name}\`: ${tool.whenToUse.replace(/\s+/g, ' ').trim()}`);
  return [PROMPT_TOOLS_START, ...lines, PROMPT_TOOLS_END].join('\n');
}

/** The prompt with its list of tools replaced by the generated one; undefined when it has no markers. */
export function withPromptToolsList(prompt: string, tools: Readonly<Record<string, PersonaTool>> = PERSONA_TOOLS): string | undefined {
  return withGeneratedBlock(prompt, PROMPT_TOOLS_START, PROMPT_TOOLS_END, promptToolsList(tools));
}
