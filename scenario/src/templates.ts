/** Date templates (`{{TODAY}}`, `{{FUTURE:N:unit}}`, `{{PAST:N:unit}}`): parsed with did-you-mean, and expanded to dates from a start. */
import { TEMPLATE_UNITS, type Template, type TemplateUnit } from './model';
import { MAX_TEMPLATE_AMOUNT } from './limits';
import { didYouMeanText, nearNames } from './suggest';

export const TEMPLATE_KEYWORDS = ['TODAY', 'FUTURE', 'PAST'] as const;

export type TemplateParse =
  { ok: true; keyword: Template['keyword']; amount: number; unit: TemplateUnit } | { ok: false; message: string; suggestions?: string[] };

/** Parses the inside of `{{...}}`. */
export function parseTemplateBody(body: string): TemplateParse {
  if (body === 'TODAY') return { ok: true, keyword: 'TODAY', amount: 0, unit: 'days' };
  const parts = body.split(':');
  const [keyword = '', amount = '', unit = ''] = parts;
  if (keyword !== 'FUTURE' && keyword !== 'PAST') {
    const suggestions = nearNames(keyword, TEMPLATE_KEYWORDS).map((k) =>
      k === 'TODAY' ? '{{TODAY}}' : `{{${k}:${amount || 'N'}:${unit || 'days'}}}`,
    );
    return {
      ok: false,
      message: `\`{{${body}}}\` is not a date template: use {{TODAY}}, {{FUTURE:N:unit}} or {{PAST:N:unit}}.${didYouMeanText(suggestions)}`,
      suggestions,
    };
  }
  if (parts.length !== 3) {
    return { ok: false, message: `\`{{${body}}}\` needs a number and a unit: write {{${keyword}:3:weeks}}.` };
  }
  if (!/^\d+$/.test(amount)) {
    return { ok: false, message: `The amount \`${amount}\` in \`{{${body}}}\` must be a whole number, as in {{${keyword}:3:${unit}}}.` };
  }
  const normalized = normalizeUnit(unit);
  if (!normalized) {
    const suggestions = nearNames(unit, TEMPLATE_UNITS).map((u) => `{{${keyword}:${amount}:${u}}}`);
    return {
      ok: false,
      message: `Unknown unit \`${unit}\` in \`{{${body}}}\`: use ${TEMPLATE_UNITS.join(', ')}.${didYouMeanText(suggestions)}`,
      suggestions,
    };
  }
  const count = Number(amount);
  const most = MAX_TEMPLATE_AMOUNT[normalized] ?? 0;
  if (!(count <= most)) {
    return {
      ok: false,
      message:
        `\`{{${body}}}\` reaches more than 10,000 years away; ` +
        `at most ${most.toLocaleString('en-US')} ${normalized}: use a nearer date.`,
    };
  }
  return { ok: true, keyword, amount: count, unit: normalized };
}

function normalizeUnit(unit: string): TemplateUnit | undefined {
  return TEMPLATE_UNITS.find((u) => u === unit || u === `${unit}s`);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * The moment a template stands for, given the run's start. Dates are wall-clock values carried
 * in a `Date`'s UTC fields, so the result does not depend on the machine's time zone.
 */
export function templateMoment(template: Pick<Template, 'keyword' | 'amount' | 'unit'>, start: Date): Date {
  const sign = template.keyword === 'PAST' ? -1 : 1;
  const n = sign * template.amount;
  const d = new Date(start.getTime());
  switch (template.unit) {
    case 'minutes':
      d.setUTCMinutes(d.getUTCMinutes() + n);
      break;
    case 'hours':
      d.setUTCHours(d.getUTCHours() + n);
      break;
    case 'days':
      d.setUTCDate(d.getUTCDate() + n);
      break;
    case 'weeks':
      d.setUTCDate(d.getUTCDate() + 7 * n);
      break;
    case 'months':
      d.setUTCMonth(d.getUTCMonth() + n);
      break;
    case 'years':
      d.setUTCFullYear(d.getUTCFullYear() + n);
      break;
  }
  return d;
}

/** What a template expands to: `19 August 2026`, with the time for minute and hour offsets. */
export function expandTemplate(template: Pick<Template, 'keyword' | 'amount' | 'unit'>, start: Date): string {
  const d = templateMoment(template, start);
  const date = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
  if (template.keyword !== 'TODAY' && (template.unit === 'minutes' || template.unit === 'hours')) {
    return `${date}, ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
  }
  return date;
}

export function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/** A template as written, bounded: nothing longer can be one, so the scan stays linear. */
const WRITTEN_TEMPLATE = /\{\{([A-Z]{1,8}(?::\d{1,7}:[a-z]{1,8})?)\}\}/g;

/**
 * A text with its templates written out: each one by the expansion a run fixed for it (`known`,
 * template as written → expansion), else expanded from `start`, else left as written. This is
 * how a check's question and answer read in the run its grade came from.
 */
export function expandTemplatesIn(text: string, known: Readonly<Record<string, string>>, start?: Date): string {
  return text.replace(WRITTEN_TEMPLATE, (raw: string, body: string) => {
    if (Object.hasOwn(known, raw)) return known[raw] ?? raw;
    const parsed = parseTemplateBody(body);
    if (!parsed.ok || !start || Number.isNaN(start.getTime())) return raw;
    const moment = templateMoment(parsed, start);
    return Number.isNaN(moment.getTime()) ? raw : expandTemplate(parsed, start);
  });
}
