/**
 * The trap writes the stand-in persona plays: the sentences of a phase that tell her to change a
 * sheet ("Update `family` fact 4.2 to "…"", "Add it to the `kitchen` sheet (category 1: "…")",
 * "delete the wine fridge") read into sheet edits, so that a rehearsal changes the live sheets as
 * a real persona would and `mmb check --audit` can compare the checks' answers with them. Only
 * what the sentence says is done: an update that gives no text takes the phase's own "X, not Y"
 * (or "X instead of Y") and puts X where the fact says Y; one with neither is left undone.
 */
import { keywords } from './text';

export type SheetEdit =
  | { kind: 'edit'; sheet: string; id: string; text: string }
  | { kind: 'replace'; sheet: string; id: string; swaps: readonly Swap[] }
  | { kind: 'add'; sheet: string; category: number; text: string }
  | { kind: 'delete'; sheet: string; id?: string; words: readonly string[] };

/** A value the phase says replaces another: "at 11:00, not 10:00" is `{ from: '10:00', to: '11:00' }`. */
export interface Swap {
  from: string;
  to: string;
}

const NUMBER = String.raw`[$£€]?\d[\d,]*(?:\.\d+)?(?::\d\d)?`;
/** "X …, not Y", "X … instead of Y", "X … rather than Y", within one clause. */
const SWAP = new RegExp(String.raw`(${NUMBER})[^.;!?]*?(?:,\s*not|\binstead of|\brather than)\s+(${NUMBER})`, 'gi');
const SHEET = /`([A-Za-z0-9_][\w-]*)`/;
const IDS = /\bfacts?\s+(\d+\.\d+(?:\s*(?:,|and)\s*\d+\.\d+)*)/i;
const QUOTED = /(?:\bto|\bbecomes?|:)\s*["“]([^"”]{1,2000})["”]/i;

/** The values the phase's text says replace others, in order. */
export function swapsOf(text: string): Swap[] {
  return [...text.matchAll(SWAP)]
    .map((m) => ({ to: bare(m[1] ?? ''), from: bare(m[2] ?? '') }))
    .filter((swap) => swap.from && swap.from !== swap.to);
}

/** A number without its currency sign or a trailing comma: how it is looked for in a fact. */
function bare(value: string): string {
  return value.replace(/^[$£€]/, '').replace(/,$/, '');
}

/**
 * The sheet edits a phase's text asks for, in the order it asks. `swaps` default to the text's own;
 * the persona passes the whole phase's when she reads one sentence ("Update `move` fact 1.3 accordingly").
 */
export function sheetEditsOf(text: string, swaps: readonly Swap[] = swapsOf(text)): SheetEdit[] {
  const edits: SheetEdit[] = [];
  for (const sentence of text.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z])/)) {
    const sheet = SHEET.exec(sentence)?.[1];
    if (!sheet) continue;
    const ids = (IDS.exec(sentence)?.[1] ?? '').match(/\d+\.\d+/g) ?? [];
    const quoted = QUOTED.exec(sentence)?.[1]?.trim();
    if (/\b(delete|remove|strike)\b/i.test(sentence)) {
      const after = /\b(?:delete|remove|strike)\b(?:\s+the)?\s+([^.;!?]*)/i.exec(sentence)?.[1] ?? '';
      if (ids.length) edits.push(...ids.map((id) => ({ kind: 'delete' as const, sheet, id, words: [] })));
      else if (keywords(after).length) edits.push({ kind: 'delete', sheet, words: keywords(after) });
    } else if (/\badd\b/i.test(sentence) && quoted) {
      const category = Number(/\bcategory\s+(\d+)/i.exec(sentence)?.[1] ?? 1);
      edits.push({ kind: 'add', sheet, category, text: quoted });
    } else if (/\b(update|becomes?|change)\b/i.test(sentence) && ids.length) {
      if (quoted && ids.length === 1) edits.push({ kind: 'edit', sheet, id: ids[0]!, text: quoted });
      else if (swaps.length) edits.push(...ids.map((id) => ({ kind: 'replace' as const, sheet, id, swaps })));
    }
  }
  return edits;
}

/** The fact's text with each swap made where the fact holds the old value; unchanged when it holds none. */
export function applySwaps(factText: string, swaps: readonly Swap[]): string {
  let out = factText;
  for (const swap of swaps) {
    const escaped = swap.from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(String.raw`(?<![\d.,:])${escaped}(?![\d]|[.,:]\d)`, 'g'), swap.to);
  }
  return out;
}

/** The fact lines of a `facts_read` result: id → text, without the "(told)" mark. */
export function factsOfRead(result: string): Map<string, string> {
  return new Map([...result.matchAll(/^(\d+\.\d+) (.+?)(?: \(told\))?$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']));
}

/** The fact of a read sheet that holds the most of `words` (at least half of them), for a deletion that names no id. */
export function factMatching(facts: ReadonlyMap<string, string>, words: readonly string[]): string | undefined {
  let best: { id: string; found: number } | undefined;
  for (const [id, text] of facts) {
    const own = new Set(keywords(text));
    const found = words.filter((word) => own.has(word)).length;
    if (found * 2 >= words.length && found > 0 && (!best || found > best.found)) best = { id, found };
  }
  return best?.id;
}
