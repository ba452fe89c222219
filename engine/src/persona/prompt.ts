/** The persona's system prompt: the universal rules, then the benchmark's scenario and profile. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sheetNamed, type LiveSheet, type RunState } from '../state/runState';

let universal: string | undefined;

/**
 * The universal rules, kept as markdown beside this file (and copied beside the bundle). Its
 * comment lines (the markers of the generated list of tools) are for its editors, not the model.
 */
export function universalPrompt(): string {
  universal ??= withoutCommentLines(readFileSync(join(__dirname, 'system-prompt.md'), 'utf8')).trim();
  return universal;
}

export const withoutCommentLines = (markdown: string): string => markdown.replace(/^<!--.*-->\n/gm, '');

export function buildSystemPrompt(instructions: string, profile: string | undefined): string {
  const parts = [universalPrompt(), `# Your scenario\n\n${instructions.trim()}`];
  if (profile?.trim()) parts.push(`# Your profile\n\nWho you are; keep it in mind all the time.\n\n${profile.trim()}`);
  return parts.join('\n\n');
}

/** The name of the sheet that is also the persona's profile (`profile.md`). */
export const PROFILE_SHEET = 'profile';

/** A live sheet written back as the markdown of a sheet file, with its current facts. */
export function renderSheet(sheet: LiveSheet): string {
  const lines = [`# ${sheet.title ?? sheet.name}`];
  for (const category of sheet.categories) {
    const facts = sheet.facts.filter((fact) => fact.category === category.number);
    if (facts.length === 0 && !category.title) continue;
    lines.push('', `## ${category.number}. ${category.title}`.trimEnd(), ...facts.map((fact) => `${fact.id} ${fact.text}`));
  }
  return lines.join('\n');
}

/**
 * Her profile as it is now: the live `profile` sheet once the run has one, so that a fact she
 * changed with `facts_edit` is what she reads from then on (the system prompt and the note after
 * a compaction both use it); `profile.md` as written before the run starts.
 */
export function liveProfile(state: RunState, written: string | undefined): string | undefined {
  const sheet = sheetNamed(state, PROFILE_SHEET);
  return sheet && written !== undefined ? renderSheet(sheet) : written;
}
