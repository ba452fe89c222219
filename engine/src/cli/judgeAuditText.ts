/**
 * `mmb judge audit`'s terminal report: one table of agreement (overall, per check type, per answer
 * kind), the 2×2 at the pass score, the pass rates of vague and specific-wrong answers, the probes,
 * test–retest, the asks without a grade, tokens and cost, and the largest disagreements. Every line
 * fits in 100 columns; every text from a set or a judge is made printable and cut.
 */
import type { Agreement } from '../judge/agreement';
import type { AuditFigures, KindPassRate, ProbeFigures } from '../judge/auditFigures';
import { cutToWidth, printable, textWidth } from './textWidth';

/** What the report says besides the figures: where the audit lives, and its cost. */
export interface AuditReportContext {
  id: string;
  journal: string;
  sets: readonly string[];
  /** USD, null when the judge model's price is unknown. */
  cost: number | null;
  model: string;
  /** Lines of the journal skipped as damaged and asked again. */
  damaged: number;
  html?: string;
}

/** Disagreements the terminal lists; the HTML page lists them all. */
const SHOWN_DISAGREEMENTS = 8;
const WIDTH = 100;
const NAME_COLUMNS = 22;

export const percent = (share: number | null): string => (share === null ? '—' : `${(share * 100).toFixed(1)}%`);
export const decimal = (value: number | null): string => (value === null ? '—' : value.toFixed(2));
export const signed = (value: number | null): string => (value === null ? '—' : `${value > 0 ? '+' : ''}${value.toFixed(2)}`);
const count = (value: number): string => value.toLocaleString('en');

const pad = (text: string, columns: number): string => `${text}${' '.repeat(Math.max(0, columns - textWidth(text)))}`;
const right = (text: string, columns: number): string => `${' '.repeat(Math.max(0, columns - textWidth(text)))}${text}`;

const HEAD = ['items', 'exact', 'MAE', 'bias', 'κ', 'pass=', 'lenient', 'harsh'];
const COLUMNS = [6, 8, 6, 7, 6, 8, 8, 7];

function row(name: string, cells: readonly string[]): string {
  return `${pad(cutToWidth(printable(name), NAME_COLUMNS), NAME_COLUMNS)}${cells.map((cell, at) => right(cell, COLUMNS[at]!)).join('')}`;
}

function agreementRow(name: string, agreement: Agreement): string {
  const table = agreement.passFail;
  return row(name, [
    count(agreement.count),
    percent(agreement.exact),
    decimal(agreement.meanAbsoluteError),
    signed(agreement.bias),
    decimal(agreement.kappa),
    percent(table.agreement),
    count(table.goldFailJudgePass),
    count(table.goldPassJudgeFail),
  ]);
}

function agreementTable(figures: AuditFigures): string[] {
  return [
    row('', HEAD),
    agreementRow('overall', figures.overall),
    'by check type',
    ...figures.byType.map((group) => agreementRow(`  ${group.name}`, group.agreement)),
    'by answer kind',
    ...figures.byKind.map((group) => agreementRow(`  ${group.name}`, group.agreement)),
    "exact: the same grade as gold; MAE and bias: of judge − gold; κ: quadratic-weighted Cohen's κ;",
    'pass=: on the same side of the pass score as gold; lenient: gold fails, the judge passes;',
    "harsh: gold passes, the judge fails. κ is — where no grade varies, and 0 where only the judge's do",
    '(within most answer kinds gold is one grade: read exact and MAE there).',
  ];
}

function passFailLines(figures: AuditFigures): string[] {
  const table = figures.overall.passFail;
  return [
    `Pass/fail at ${figures.passScore} (gold by rows, the judge by columns):`,
    `${pad('', 14)}${right('judge pass', 12)}${right('judge fail', 12)}`,
    `${pad('  gold pass', 14)}${right(count(table.bothPass), 12)}${right(count(table.goldPassJudgeFail), 12)}`,
    `${pad('  gold fail', 14)}${right(count(table.goldFailJudgePass), 12)}${right(count(table.bothFail), 12)}`,
  ];
}

function kindRateLine(label: string, rate: KindPassRate): string {
  const of = `${count(rate.passed)} of ${count(rate.items)}`;
  return `${pad(label, 34)}${of} passed (${percent(rate.rate)}; gold passes ${percent(rate.goldRate)})`;
}

function probeLine(label: string, probe: ProbeFigures): string {
  const moved = `moved ${count(probe.moved)} of ${count(probe.items)} (${percent(probe.movedShare)}), raised ${count(probe.raised)}`;
  return `${pad(label, 34)}${moved}; mean move ${signed(probe.meanMove)}, mean |move| ${decimal(probe.meanAbsoluteMove)}`;
}

/** The share of the prompt the provider's cache served, or that it never said. */
const cachedText = (cached: number | null): string => (cached === null ? ' (no cache reported)' : ` (${count(cached)} cached)`);

function figureLines(figures: AuditFigures, context: AuditReportContext): string[] {
  const retest = figures.retest;
  const noGrade = figures.noGrade.length;
  const reasons = [...new Set(figures.noGrade.map((entry) => printable(entry.reason)))].slice(0, 3).join('; ');
  const usage = figures.usage;
  const cost =
    context.cost === null ? `price of ${printable(context.model)} unknown (add it under "prices")` : `$${context.cost.toFixed(4)}`;
  const seconds = (usage.ms / 1000 / Math.max(1, usage.requests)).toFixed(2);
  const tokens = `${count(usage.promptTokens)} prompt${cachedText(usage.cachedTokens)} + ${count(usage.completionTokens)} completion`;
  return [
    kindRateLine('Vague but on topic:', figures.vague),
    kindRateLine('Specific but wrong:', figures.specificWrong),
    probeLine('Verbosity probe (filler added):', figures.verbosity),
    probeLine('Injection probe (asks for 10/10):', figures.injection),
    figures.repeats > 1
      ? `${pad(`Test–retest over ${figures.repeats} repeats:`, 34)}changed ${count(retest.changed)} of ${count(retest.items)} ` +
        `(${percent(retest.changedShare)}), mean spread ${decimal(retest.meanSpread)}`
      : `${pad('Test–retest:', 34)}one repeat: run with --repeat 3 to measure it`,
    `${pad('No grade:', 34)}${count(noGrade)} of ${count(figures.answered)} answers` +
      `${figures.ungradedItems ? `, ${count(figures.ungradedItems)} items never graded` : ''}${noGrade ? ` (${reasons})` : ''}`,
    `${pad('Tokens:', 34)}${tokens}`,
    `${pad('Requests:', 34)}${count(usage.requests)}, ${seconds} s each`,
    `${pad('Cost:', 34)}${cost}`,
  ];
}

function disagreementLines(figures: AuditFigures, context: AuditReportContext): string[] {
  if (!figures.disagreements.length) return ['No disagreement with gold.'];
  const where = context.html ? `all in ${printable(context.html)}` : 'all with --html';
  const lines = [`Disagreements: ${count(figures.disagreements.length)}, the largest first (${where}):`];
  for (const item of figures.disagreements.slice(0, SHOWN_DISAGREEMENTS)) {
    const grades = `gold ${item.gold}, judge ${item.judge}`;
    const answer = JSON.stringify(printable(item.answer).replace(/\s+/g, ' '));
    lines.push(cutToWidth(`  ${printable(item.item)} (${printable(item.kind)}): ${grades}: ${answer}`, WIDTH));
    if (item.comment) lines.push(cutToWidth(`    the judge: ${printable(item.comment).replace(/\s+/g, ' ')}`, WIDTH));
  }
  return lines;
}

/** The whole report, as lines to print. */
export function auditReportText(figures: AuditFigures, context: AuditReportContext): string {
  const sets = context.sets.length === 1 ? '1 set' : `${context.sets.length} sets`;
  const header =
    `Judge audit of ${printable(figures.judge)}: ${count(figures.items)} items of ${sets}, ` +
    `${count(figures.answered)}/${count(figures.asks)} asks answered`;
  const damaged = context.damaged ? [`(${count(context.damaged)} damaged journal lines skipped; their asks were asked again)`] : [];
  const lines = [
    cutToWidth(header, WIDTH),
    cutToWidth(`journal: ${printable(context.journal)}`, WIDTH),
    ...damaged,
    '',
    ...agreementTable(figures),
    '',
    ...passFailLines(figures),
    '',
    ...figureLines(figures, context).map((line) => cutToWidth(line, WIDTH)),
    '',
    ...disagreementLines(figures, context),
  ];
  return `${lines.join('\n')}\n`;
}
