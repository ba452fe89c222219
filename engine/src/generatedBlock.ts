/**
 * The two helpers of every table `scripts/schemas.ts` writes into a document (the run keys, the
 * persona's tools, the agents): a text made one safe table cell, and a document's marked block
 * replaced by its generated text.
 */

/** One line of a markdown table cell: a `|` would end the cell, a line break the row, a `<!--` could fake a marker. */
export function markdownTableCell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replaceAll('|', '\\|').replaceAll('<!--', '&lt;!--');
}

/** `text` with what stands from `start` to `end` (both markers included) replaced by `block`; undefined when a marker is missing. */
export function withGeneratedBlock(text: string, start: string, end: string, block: string): string | undefined {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) return undefined;
  return text.slice(0, from) + block + text.slice(to + end.length);
}
