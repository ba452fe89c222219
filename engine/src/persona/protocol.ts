/**
 * The texts the engine hands the persona at phase boundaries. The stand-in model reads them back
 * to find where a phase begins, so both sides take them from here.
 */
import type { Position } from '../state/runState';

const HEADER = /^\[Phase (\d+)\/(\d+) of (\S+) — (.*)\]$/m;
export const SCENARIO_COMPLETE = '[The scenario is complete. Thank the assistant briefly; nothing else is needed.]';

export function phaseHeader(position: Position, phaseCount: number, title: string): string {
  return `[Phase ${position.phase + 1}/${phaseCount} of ${position.chapter} — ${title}]`;
}

/** The phase instructions handed to the persona, under their header. */
export function phaseMessage(position: Position, phaseCount: number, title: string, instructions: string): string {
  return `${phaseHeader(position, phaseCount, title)}\n\n${instructions}\n\nWhen the phase is done, call \`next_phase\`.`;
}

/** The phase text inside a message that starts a phase, or undefined for any other message. */
export function phaseTextOf(message: string): string | undefined {
  const m = HEADER.exec(message);
  if (!m) return undefined;
  return message
    .slice(m.index + m[0].length)
    .replace(/\n\nWhen the phase is done, call `next_phase`\.\s*$/, '')
    .trim();
}

export const REPLY_PREFIX = 'The assistant replied:\n\n';
export const NO_REPLY_PREFIX = '(The assistant did not reply';
