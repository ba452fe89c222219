/** Parses a fact sheet: `# Title`, `## N. Category` headings and `N.M text` fact lines. */
import { diagnostic, type Diagnostic } from './diagnostics';
import { headingText, parseBlocks, type Block } from './markdown';
import type { Category, Fact, Sheet } from './model';
import { LineIndex, lineRange, range as makeRange } from './text';

const FACT_LINE = /^(\d+)\.(\d+)(?:[ \t]+(.*))?$/;
const DELETED = new Set(['—', '–', '-', '--']);

/**
 * A fact's text that deletes it: a dash alone (`—`, `–`, `-` or `--`). The one rule for sheets and
 * for the persona's `facts_edit` during a run.
 */
export function isDeletionMarker(text: string): boolean {
  return DELETED.has(text.trim());
}

/** The sheet's name for a file: its base name without `.md`. */
export function sheetName(file: string): string {
  return file.replace(/^.*[\\/]/, '').replace(/\.md$/i, '');
}

/** Parses one sheet file. Never throws; problems come back as `diagnostics`. */
export function parseSheet(text: string, file: string): Sheet {
  const lines = new LineIndex(text);
  const diagnostics: Diagnostic[] = [];
  const sheet: Sheet = { name: sheetName(file), file, categories: [], facts: [], lines, diagnostics };
  const headings = new Map<number, Extract<Block, { kind: 'heading' }>>();
  const skip = new Set<number>();
  for (const b of parseBlocks(text)) {
    if (b.kind === 'heading') {
      headings.set(b.startLine, b);
      for (let l = b.startLine + 1; l <= b.endLine; l++) skip.add(l);
    } else if (b.kind === 'code' || b.kind === 'html') {
      for (let l = b.startLine; l <= b.endLine; l++) skip.add(l);
    }
  }
  const bad = (line: number, message: string) => {
    const t = lines.lineText(line);
    const indent = t.length - t.trimStart().length;
    diagnostics.push(diagnostic('malformed-fact-line', file, lineRange(line, indent, t.trimEnd().length), message));
  };

  const live = new Map<string, Fact | undefined>();
  let category: Category | undefined;
  let lastFact: Fact | undefined;
  for (let l = 0; l < lines.lineCount; l++) {
    if (skip.has(l)) continue;
    const text = lines.lineText(l);
    const heading = headings.get(l);
    if (heading) {
      lastFact = undefined;
      const title = headingText(lines.text, heading);
      if (heading.depth === 1) {
        if (sheet.title === undefined && sheet.categories.length === 0) {
          sheet.title = title;
          sheet.titleRange = lineRange(l, 0, lines.lineText(l).length);
        }
        else bad(l, 'A sheet has one `#` title, at the top; make this a category: `## N. Title`.');
      } else if (heading.depth === 2) {
        const m = /^(\d+)\.\s+(.*\S)$/.exec(title);
        if (!m) {
          bad(l, `\`## ${title}\` is not a category heading: number it, as in \`## ${sheet.categories.length + 1}. ${title || 'Title'}\`.`);
          category = undefined;
          continue;
        }
        const number = Number(m[1]);
        const twin = sheet.categories.find((c) => c.number === number);
        if (twin) bad(l, `Category ${number} already opens at line ${twin.range.start.line + 1}: give this one another number.`);
        category = { number, title: m[2] ?? '', range: makeRange(l, 0, heading.endLine, lines.lineText(heading.endLine).length) };
        sheet.categories.push(category);
      } else {
        bad(l, 'A sheet holds only a `#` title, `## N. Title` categories and `N.M text` facts; remove this heading or make it a category.');
      }
      continue;
    }
    if (text.trim() === '') {
      lastFact = undefined;
      continue;
    }
    if (/^[ \t]/.test(text) && lastFact) {
      lastFact.text = `${lastFact.text} ${text.trim()}`;
      lastFact.range = makeRange(lastFact.range.start.line, lastFact.range.start.character, l, text.trimEnd().length);
      continue;
    }
    const trimmed = text.trim();
    const m = FACT_LINE.exec(trimmed);
    if (!category) {
      if (m) bad(l, `Fact ${m[1]}.${m[2]} sits outside any category: put a \`## ${m[1]}. Title\` heading above it.`);
      continue;
    }
    if (!m) {
      bad(l, `Expected a fact line \`${category.number}.M text\` under \`## ${category.number}. ${category.title}\`; notes belong above the first category.`);
      continue;
    }
    const indent = text.length - text.trimStart().length;
    const id = `${m[1]}.${m[2]}`;
    const body = (m[3] ?? '').trim();
    if (Number(m[1]) !== category.number) {
      bad(l, `Fact ${id} sits under category ${category.number} (\`## ${category.number}. ${category.title}\`): renumber it ${category.number}.${m[2]} or move it under \`## ${m[1]}.\`.`);
      continue;
    }
    if (!body) {
      bad(l, `Fact ${id} has no text: write the fact after the id, or \`—\` to delete it.`);
      continue;
    }
    const fact: Fact = {
      id,
      category: category.number,
      text: body,
      deleted: isDeletionMarker(body),
      range: lineRange(l, indent, text.trimEnd().length),
      idRange: lineRange(l, indent, indent + id.length),
    };
    const twin = live.get(id);
    live.set(id, fact.deleted ? undefined : fact);
    if (twin && !fact.deleted) {
      diagnostics.push(diagnostic('duplicate-fact-id', file, fact.idRange,
        `Fact ${id} is already defined at line ${twin.range.start.line + 1}: give this one a free id (${nextFreeFactId(sheet, category.number)}), or delete the first with \`${id} —\`.`,
        { related: [{ file, range: twin.idRange, message: `first definition of ${sheet.name}#${id}` }], suggestions: [nextFreeFactId(sheet, category.number)] }));
    }
    sheet.facts.push(fact);
    lastFact = fact;
  }
  return sheet;
}

/** The fact an id stands for now: the last live definition, or undefined if none or deleted. */
export function liveFact(sheet: Sheet, id: string): Fact | undefined {
  for (let i = sheet.facts.length - 1; i >= 0; i--) {
    const f = sheet.facts[i];
    if (f?.id === id) return f.deleted ? undefined : f;
  }
  return undefined;
}

/** The facts a persona tells: every id's current live definition, in file order. */
export function liveFacts(sheet: Sheet): Fact[] {
  const last = new Map<string, Fact>();
  for (const f of sheet.facts) last.set(f.id, f);
  return sheet.facts.filter((f) => !f.deleted && last.get(f.id) === f);
}

export function nextFreeFactId(sheet: Sheet, category: number): string {
  const used = sheet.facts.filter((f) => f.category === category).map((f) => Number(f.id.split('.')[1]));
  return `${category}.${Math.max(0, ...used) + 1}`;
}
