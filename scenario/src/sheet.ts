/** Parses a fact sheet: `# Title`, `## N. Category` headings and `N.M text` fact lines. */
import { diagnostic } from './diagnostics';
import { markdownLimit, stripBom } from './limits';
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

type Heading = Extract<Block, { kind: 'heading' }>;

/** What reading a sheet line by line keeps; the maps keep many categories or duplicates linear. */
interface SheetReading {
  sheet: Sheet;
  lines: LineIndex;
  live: Map<string, Fact | undefined>;
  categoryLines: Map<number, number>;
  category: Category | undefined;
  lastFact: Fact | undefined;
  /** Each live fact defined again, with the earlier definition it shadows: reported on both once the sheet is read. */
  twins: { fact: Fact; twin: Fact }[];
}

/** Parses one sheet file. Never throws; problems come back as `diagnostics`. */
export function parseSheet(source: string, file: string): Sheet {
  const text = stripBom(source);
  const lines = new LineIndex(text);
  const sheet: Sheet = { name: sheetName(file), file, categories: [], facts: [], lines, diagnostics: [] };
  const limit = markdownLimit(text);
  if (limit) {
    sheet.diagnostics.push(diagnostic('over-limit', file, lineRange(limit.line, 0, lines.lineText(limit.line).length), limit.message));
    return sheet;
  }
  const headings = new Map<number, Heading>();
  const skip = new Set<number>();
  for (const b of parseBlocks(text)) {
    if (b.kind === 'heading') {
      headings.set(b.startLine, b);
      for (let l = b.startLine + 1; l <= b.endLine; l++) skip.add(l);
    } else if (b.kind === 'code' || b.kind === 'html') {
      for (let l = b.startLine; l <= b.endLine; l++) skip.add(l);
    }
  }
  const reading: SheetReading = {
    sheet,
    lines,
    live: new Map(),
    categoryLines: new Map(),
    category: undefined,
    lastFact: undefined,
    twins: [],
  };
  for (let l = 0; l < lines.lineCount; l++) {
    if (skip.has(l)) continue;
    const heading = headings.get(l);
    if (heading) readHeading(reading, l, heading);
    else readLine(reading, l);
  }
  reportTwins(reading);
  return sheet;
}

function malformed(reading: SheetReading, line: number, message: string): void {
  const t = reading.lines.lineText(line);
  const indent = t.length - t.trimStart().length;
  reading.sheet.diagnostics.push(
    diagnostic('malformed-fact-line', reading.sheet.file, lineRange(line, indent, t.trimEnd().length), message),
  );
}

function readHeading(reading: SheetReading, line: number, heading: Heading): void {
  const { sheet, lines } = reading;
  reading.lastFact = undefined;
  const title = headingText(lines.text, heading);
  if (heading.depth === 1) {
    if (sheet.title === undefined && sheet.categories.length === 0) {
      sheet.title = title;
      sheet.titleRange = lineRange(line, 0, lines.lineText(line).length);
    } else malformed(reading, line, 'A sheet has one `#` title, at the top; make this a category: `## N. Title`.');
  } else if (heading.depth === 2) {
    const m = /^(\d+)\.\s+(.*\S)$/.exec(title);
    if (!m) {
      malformed(
        reading,
        line,
        `\`## ${title}\` is not a category heading: number it, as in \`## ${sheet.categories.length + 1}. ${title || 'Title'}\`.`,
      );
      reading.category = undefined;
      return;
    }
    const number = Number(m[1]);
    const twin = reading.categoryLines.get(number);
    if (twin !== undefined) malformed(reading, line, `Category ${number} already opens at line ${twin + 1}: give this one another number.`);
    else reading.categoryLines.set(number, line);
    reading.category = { number, title: m[2] ?? '', range: makeRange(line, 0, heading.endLine, lines.lineText(heading.endLine).length) };
    sheet.categories.push(reading.category);
  } else {
    malformed(
      reading,
      line,
      'A sheet holds only a `#` title, `## N. Title` categories and `N.M text` facts; remove this heading or make it a category.',
    );
  }
}

function readLine(reading: SheetReading, line: number): void {
  const { sheet, category, lastFact } = reading;
  const text = reading.lines.lineText(line);
  if (text.trim() === '') {
    reading.lastFact = undefined;
    return;
  }
  if (/^[ \t]/.test(text) && lastFact) {
    lastFact.text = `${lastFact.text} ${text.trim()}`;
    lastFact.range = makeRange(lastFact.range.start.line, lastFact.range.start.character, line, text.trimEnd().length);
    return;
  }
  const m = FACT_LINE.exec(text.trim());
  if (!category) {
    if (m) malformed(reading, line, `Fact ${m[1]}.${m[2]} sits outside any category: put a \`## ${m[1]}. Title\` heading above it.`);
    return;
  }
  if (!m) {
    malformed(
      reading,
      line,
      `Expected a fact line \`${category.number}.M text\` under \`## ${category.number}. ${category.title}\`; ` +
        `notes belong above the first category.`,
    );
    return;
  }
  const indent = text.length - text.trimStart().length;
  const id = `${m[1]}.${m[2]}`;
  const body = (m[3] ?? '').trim();
  if (Number(m[1]) !== category.number) {
    malformed(
      reading,
      line,
      `Fact ${id} sits under category ${category.number} (\`## ${category.number}. ${category.title}\`): ` +
        `renumber it ${category.number}.${m[2]} or move it under \`## ${m[1]}.\`.`,
    );
    return;
  }
  if (!body) {
    malformed(reading, line, `Fact ${id} has no text: write the fact after the id, or \`—\` to delete it.`);
    return;
  }
  const fact: Fact = {
    id,
    category: category.number,
    text: body,
    deleted: isDeletionMarker(body),
    range: lineRange(line, indent, text.trimEnd().length),
    idRange: lineRange(line, indent, indent + id.length),
  };
  const twin = reading.live.get(id);
  reading.live.set(id, fact.deleted ? undefined : fact);
  if (twin && !fact.deleted) reading.twins.push({ fact, twin });
  sheet.facts.push(fact);
  reading.lastFact = fact;
}

/**
 * A duplicate fact id is an error on every live definition, each with a free id of its category
 * (free in the whole sheet, so the fix never makes a new duplicate): the later line says it shadows
 * the earlier, the earlier that it is shadowed.
 */
function reportTwins({ sheet, twins }: SheetReading): void {
  if (twins.length === 0) return;
  const highest = new Map<number, number>();
  for (const f of sheet.facts) highest.set(f.category, Math.max(highest.get(f.category) ?? 0, Number(f.id.split('.')[1])));
  const reported = new Set<Fact>();
  for (const { fact, twin } of twins) {
    const free = `${fact.category}.${(highest.get(fact.category) ?? 0) + 1}`;
    const first = `first definition of ${sheet.name}#${fact.id}`;
    sheet.diagnostics.push(
      diagnostic(
        'duplicate-fact-id',
        sheet.file,
        fact.idRange,
        `Fact ${fact.id} is already defined at line ${twin.range.start.line + 1}: ` +
          `give this one a free id (${free}), or delete the first with \`${fact.id} —\`.`,
        { related: [{ file: sheet.file, range: twin.idRange, message: first }], suggestions: [free] },
      ),
    );
    reported.add(fact);
    if (reported.has(twin)) continue;
    reported.add(twin);
    sheet.diagnostics.push(
      diagnostic(
        'duplicate-fact-id',
        sheet.file,
        twin.idRange,
        `Fact ${fact.id} is defined again at line ${fact.range.start.line + 1}, and the later definition is the one in force: ` +
          `give this one a free id (${free}), or remove it.`,
        {
          related: [{ file: sheet.file, range: fact.idRange, message: `later definition of ${sheet.name}#${fact.id}` }],
          suggestions: [free],
        },
      ),
    );
  }
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
  let highest = 0;
  for (const f of sheet.facts) if (f.category === category) highest = Math.max(highest, Number(f.id.split('.')[1]));
  return `${category}.${highest + 1}`;
}
