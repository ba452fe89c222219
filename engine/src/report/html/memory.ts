/** The agent's memory beside a failed answer: the snapshot of the conversation it was given in, the lines holding the expected value marked. */
import { expectedTokens, lineHolds, type MemorySnapshot } from '../memory';
import { escapeHtml } from './page';

/** The snapshot of conversation `number` (else the first one after it), folded; empty without one. */
export function memoryAt(memory: readonly MemorySnapshot[], number: number, expected: string): string {
  const snapshot = memory.find((m) => m.conversation === number) ?? memory.find((m) => m.conversation > number);
  if (!snapshot) return '';
  const tokens = expectedTokens(expected);
  let held = 0;
  const files = snapshot.files.map((f) => {
    const lines = f.text.split('\n').map((line) => {
      const hit = tokens.length > 0 && lineHolds(line, tokens);
      if (hit) held++;
      return `<span class="mem-line${hit ? ' hit' : ''}">${escapeHtml(line)}</span>`;
    });
    return `<div class="mem-file"><div class="note">${escapeHtml(f.name)}${f.cut ? ' (cut)' : ''}</div><pre>${lines.join('\n')}</pre></div>`;
  });
  const summary = `The agent's memory after conversation ${snapshot.conversation}: ${snapshot.files.length} file${snapshot.files.length === 1 ? '' : 's'}, ${held} line${held === 1 ? '' : 's'} holding the expected value`;
  return `<details class="memory"><summary>${escapeHtml(summary)}</summary>${files.join('') || '<p class="note">empty</p>'}</details>`;
}
