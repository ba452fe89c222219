/**
 * Grammars of single lines of a phase: fact refs, backticked sheet names, date templates, date
 * lines and time anchors. Each scanner takes one line's text and its 0-based number.
 */
import { diagnostic, type Diagnostic } from './diagnostics';
import type { DateLine, FactRef, SheetRef, Template, TimeAnchor } from './model';
import { parseTemplateBody } from './templates';
import { lineRange } from './text';

/** `sheet#N.M`; the sheet name is a file base name, so it may hold letters, digits, `_` and `-`. */
const FACT_REF = /(?<![\w#/.-])([A-Za-z0-9_][\w-]*)#(\d+\.\d+)(?![\w.]*\d)/g;

export function scanFactRefs(text: string, line: number): FactRef[] {
  const refs: FactRef[] = [];
  for (const m of text.matchAll(FACT_REF)) {
    const start = m.index;
    const sheet = m[1] ?? '';
    const id = m[2] ?? '';
    const hash = start + sheet.length;
    refs.push({
      sheet,
      id,
      range: lineRange(line, start, hash + 1 + id.length),
      sheetRange: lineRange(line, start, hash),
      idRange: lineRange(line, hash + 1, hash + 1 + id.length),
    });
  }
  return refs;
}

const BACKTICKED = /(?<!`)`([A-Za-z0-9_][\w-]*)`(?!`)/g;

/** Backticked names; each names a sheet if one exists by that name or the word "sheet" follows. */
export function scanSheetRefs(text: string, line: number): SheetRef[] {
  const refs: SheetRef[] = [];
  for (const m of text.matchAll(BACKTICKED)) {
    const name = m[1] ?? '';
    const end = m.index + name.length + 2;
    refs.push({
      sheet: name,
      range: lineRange(line, m.index + 1, m.index + 1 + name.length),
      via: 'backticks',
      sheetWordFollows: /^\s+sheets?\b/i.test(text.slice(end)),
    });
  }
  return refs;
}

export function scanTemplates(text: string, line: number, file: string, out: Diagnostic[]): Template[] {
  const templates: Template[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('{{', from);
    if (open < 0) break;
    const close = text.indexOf('}}', open + 2);
    const nextOpen = text.indexOf('{{', open + 2);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
      out.push(
        diagnostic(
          'malformed-template',
          file,
          lineRange(line, open, text.length),
          'This date template has no closing `}}`: write it as {{FUTURE:3:weeks}}, {{PAST:2:days}} or {{TODAY}}.',
        ),
      );
      if (close < 0) break;
      from = nextOpen;
      continue;
    }
    const raw = text.slice(open, close + 2);
    const range = lineRange(line, open, close + 2);
    const parsed = parseTemplateBody(text.slice(open + 2, close));
    if (parsed.ok) {
      templates.push({ raw, range, keyword: parsed.keyword, amount: parsed.amount, unit: parsed.unit });
    } else {
      out.push(
        diagnostic(
          'malformed-template',
          file,
          range,
          parsed.message,
          parsed.suggestions?.length ? { suggestions: parsed.suggestions } : {},
        ),
      );
    }
    from = close + 2;
  }
  return templates;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Days since 1970-01-01 for a valid `YYYY-MM-DD`, or undefined. */
export function dayNumber(date: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return t / 86_400_000;
}

const DATE_START = /^(\s*)(\d{4}-\d{2}-\d{2})(?!\d)/;

/** A line that starts with `YYYY-MM-DD` is a date line: `2026-03-10, Tue`. */
export function scanDateLine(text: string, line: number, file: string, out: Diagnostic[]): DateLine | undefined {
  const m = DATE_START.exec(text);
  if (!m) return undefined;
  const indent = (m[1] ?? '').length;
  const date = m[2] ?? '';
  const range = lineRange(line, indent, text.trimEnd().length);
  const day = dayNumber(date);
  if (day === undefined) {
    out.push(
      diagnostic(
        'malformed-time-anchor',
        file,
        lineRange(line, indent, indent + date.length),
        `\`${date}\` is not a calendar date: write a real date as YYYY-MM-DD.`,
      ),
    );
    return undefined;
  }
  const rest = text.slice(indent + date.length);
  const tail = /^\s*(?:,\s*([A-Za-z]+)\.?)?\s*$/.exec(rest);
  if (!tail) {
    out.push(
      diagnostic(
        'malformed-time-anchor',
        file,
        range,
        'A date line holds only the date and, if you like, the weekday (`2026-03-10, Tue`); put the rest on the next line.',
      ),
    );
    return undefined;
  }
  const weekday = tail[1]?.toLowerCase();
  if (weekday) {
    const actual = WEEKDAYS[((Math.floor(day) % 7) + 11) % 7] ?? '';
    const known = WEEKDAYS.find((w) => w === weekday || (weekday.length >= 3 && w.startsWith(weekday)));
    if (!known) {
      out.push(
        diagnostic('malformed-time-anchor', file, range, `\`${tail[1]}\` is not a weekday: write Mon, Tue, Wed, Thu, Fri, Sat or Sun.`),
      );
      return undefined;
    }
    if (known !== actual) {
      const proper = actual.charAt(0).toUpperCase() + actual.slice(1, 3);
      out.push(
        diagnostic(
          'malformed-time-anchor',
          file,
          range,
          `${date} is a ${actual.charAt(0).toUpperCase()}${actual.slice(1)}, not a ${known.charAt(0).toUpperCase()}${known.slice(1)}: ` +
            `fix the date or write \`${date}, ${proper}\`.`,
          { suggestions: [`${date}, ${proper}`] },
        ),
      );
    }
  }
  return { date, range };
}

const TIME_START = /^(\s*)(\d{1,2}):(\d{1,2})(?=\s*(?:—|–|-))/;

/** A line `HH:MM — action` (also `-` or `–`) is a time anchor. */
export function scanTimeAnchor(
  text: string,
  line: number,
  file: string,
  out: Diagnostic[],
  date: string | undefined,
): TimeAnchor | undefined {
  const m = TIME_START.exec(text);
  if (!m) return undefined;
  const indent = (m[1] ?? '').length;
  const hh = m[2] ?? '';
  const mm = m[3] ?? '';
  const timeRange = lineRange(line, indent, indent + hh.length + 1 + mm.length);
  const hour = Number(hh);
  const minute = Number(mm);
  if (hh.length !== 2 || mm.length !== 2 || hour > 23 || minute > 59) {
    const fix =
      hour <= 23 && minute <= 59 ? ` write \`${hh.padStart(2, '0')}:${mm.padStart(2, '0')}\`` : ' hours run 00–23 and minutes 00–59';
    out.push(diagnostic('malformed-time-anchor', file, timeRange, `\`${hh}:${mm}\` is not a time anchor (HH:MM):${fix}.`));
    return undefined;
  }
  const anchor: TimeAnchor = { time: `${hh}:${mm}`, minutes: hour * 60 + minute, range: lineRange(line, indent, text.trimEnd().length) };
  if (date !== undefined) anchor.date = date;
  return anchor;
}
