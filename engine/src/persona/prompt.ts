/** The persona's system prompt: the universal rules, then the benchmark's scenario and profile. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let universal: string | undefined;

/** The universal rules, kept as markdown beside this file (and copied beside the bundle). */
export function universalPrompt(): string {
  universal ??= readFileSync(join(__dirname, 'system-prompt.md'), 'utf8').trim();
  return universal;
}

export function buildSystemPrompt(instructions: string, profile: string | undefined): string {
  const parts = [universalPrompt(), `# Your scenario\n\n${instructions.trim()}`];
  if (profile?.trim()) parts.push(`# Your profile\n\nWho you are; keep it in mind all the time.\n\n${profile.trim()}`);
  return parts.join('\n\n');
}
