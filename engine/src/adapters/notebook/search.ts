/** Line search over notes or transcripts: the lines holding the most of the query's words first. */

export interface Doc {
  name: string;
  text: string;
}

export interface Hit {
  name: string;
  line: number;
  text: string;
  score: number;
}

/** Lower-case words of two letters or more; case and punctuation do not matter. */
export function queryTerms(query: string): string[] {
  return [
    ...new Set(
      (query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’.:-]*/gu) ?? [])
        .map((w) => w.replace(/[.:'’-]+$/, ''))
        .filter((w) => w.length >= 2),
    ),
  ];
}

/** Every line that contains at least one term (as a substring), best first, then in document order. */
export function searchDocs(docs: Doc[], query: string, max: number): Hit[] {
  const terms = queryTerms(query);
  const hits: Hit[] = [];
  for (const doc of docs) {
    doc.text.split('\n').forEach((text, i) => {
      const lower = text.toLowerCase();
      const score = terms.filter((t) => lower.includes(t)).length;
      if (score > 0 && text.trim()) hits.push({ name: doc.name, line: i + 1, text: text.trim(), score });
    });
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, max);
}

export function formatHits(hits: Hit[], query: string, what: string): string {
  if (queryTerms(query).length === 0) return 'Error: the query has no words to search for: give a few key words, such as "movers price".';
  if (hits.length === 0) return `No ${what} matches "${query}".`;
  return hits.map((h) => `${h.name}:${h.line}: ${h.text}`).join('\n');
}
