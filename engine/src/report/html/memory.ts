/**
 * The agent's memory beside a failed answer: the snapshot of the conversation it was given in, the
 * lines holding the expected value marked, and apart, in another colour, those holding a stale
 * value (one a trap write replaced), as the editor's *What caught it* lists them.
 */
import { expectedTokens, lineHolds, type MemorySnapshot } from '../memory';
import { escapeHtml } from './page';
import { noteParagraph } from './markup';

/**
 * The snapshot of conversation `number` (else the first one after it), folded; empty without one.
 * `stale`: `CheckResult.staleTokens`.
 */
export function memoryAt(memory: readonly MemorySnapshot[], number: number, expected: string, stale: readonly string[] = []): string {
  const snapshot = memory.find((entry) => entry.conversation === number) ?? memory.find((entry) => entry.conversation > number);
  if (!snapshot) return '';
  const tokens = expectedTokens(expected);
  let held = 0;
  let staleLines = 0;
  const files = snapshot.files.map((file) => {
    const lines = file.text.split('\n').map((line) => {
      const hit = tokens.length > 0 && lineHolds(line, tokens);
      const old = stale.length > 0 && lineHolds(line, stale);
      if (hit) held++;
      if (old) staleLines++;
      return `<span class="mem-line${hit ? ' hit' : ''}${old ? ' stale' : ''}">${escapeHtml(line)}</span>`;
    });
    const name = `<div class="note">${escapeHtml(file.name)}${file.cut ? ' (cut)' : ''}</div>`;
    return `<div class="mem-file">${name}<pre>${lines.join('\n')}</pre></div>`;
  });
  const lineCount = (count: number) => `${count} line${count === 1 ? '' : 's'}`;
  const staleText = stale.length ? `, ${lineCount(staleLines)} holding a stale value` : '';
  const fileCount = `${snapshot.files.length} file${snapshot.files.length === 1 ? '' : 's'}`;
  const counts = `${fileCount}, ${lineCount(held)} holding the expected value${staleText}`;
  const summary = `The agent's memory after conversation ${snapshot.conversation}: ${counts}`;
  const staleLegend = stale.length
    ? ` <span class="mem-line stale">stale</span> a value a trap write replaced (${escapeHtml(stale.join(', '))})`
    : '';
  const legend = `<p class="mem-legend note"><span class="mem-line hit">expected</span> the expected value${staleLegend}</p>`;
  return `<details class="memory"><summary>${escapeHtml(summary)}</summary>${legend}${files.join('') || noteParagraph('empty')}</details>`;
}
