/**
 * `mmb judge audit --html`: the audit as one page in the reports' style (`report/html/page.ts`):
 * the headline figures, agreement per check type and per answer kind, the 2×2, the probes, and every
 * disagreement with its answer, the gold grade, the judge's and its comment. Every text of a set or
 * of a judge is escaped; the page fetches nothing.
 */
import type { Agreement } from '../judge/agreement';
import type { AuditFigures, Disagreement, GroupAgreement, KindPassRate, NoGrade, ProbeFigures } from '../judge/auditFigures';
import { gradeBadge, noteParagraph, numberCell, numberHead, plural, tableOf, tagLabel } from '../report/html/markup';
import { escapeHtml, page, type RenderOptions } from '../report/html/page';
import { decimal, percent, signed, type AuditReportContext } from './judgeAuditText';

/** A raw reply shown in full would swamp the page: each is cut to this. */
const MAX_RAW_SHOWN = 600;

const kpi = (label: string, value: string): string =>
  `<div class="kpi"><div class="v">${escapeHtml(value)}</div><div class="k">${escapeHtml(label)}</div></div>`;

function agreementRow(name: string, agreement: Agreement): string {
  const table = agreement.passFail;
  const cells = [
    String(agreement.count),
    percent(agreement.exact),
    decimal(agreement.meanAbsoluteError),
    signed(agreement.bias),
    decimal(agreement.kappa),
    percent(table.agreement),
    String(table.goldFailJudgePass),
    String(table.goldPassJudgeFail),
  ];
  return `<tr><td>${escapeHtml(name)}</td>${cells.map((cell) => numberCell(escapeHtml(cell))).join('')}</tr>`;
}

function agreementTable(figures: AuditFigures): string {
  const heads = ['items', 'exact', 'MAE', 'bias', 'kappa', 'pass/fail agree', 'lenient', 'harsh'];
  const group = (title: string, groups: readonly GroupAgreement[]) => [
    `<tr class="sep"><td colspan="${heads.length + 1}">${escapeHtml(title)}</td></tr>`,
    ...groups.map((entry) => agreementRow(entry.name, entry.agreement)),
  ];
  const rows = [
    agreementRow('overall', figures.overall),
    ...group('by check type', figures.byType),
    ...group('by answer kind', figures.byKind),
  ];
  return tableOf(`<th></th>${heads.map((head) => numberHead(escapeHtml(head))).join('')}`, rows.join('\n'));
}

function passFailTable(figures: AuditFigures): string {
  const table = figures.overall.passFail;
  const rows = [
    `<tr><th>gold passes</th>${numberCell(String(table.bothPass))}${numberCell(String(table.goldPassJudgeFail))}</tr>`,
    `<tr><th>gold fails</th>${numberCell(String(table.goldFailJudgePass))}${numberCell(String(table.bothFail))}</tr>`,
  ];
  return tableOf(`<th></th>${numberHead('the judge passes')}${numberHead('the judge fails')}`, rows.join('\n'));
}

function rateRow(label: string, rate: KindPassRate): string {
  const passed = `${rate.passed} of ${rate.items} (${percent(rate.rate)})`;
  const gold = `gold passes ${percent(rate.goldRate)}`;
  return `<tr><td>${escapeHtml(label)}</td><td>${escapeHtml(passed)}</td><td>${escapeHtml(gold)}</td></tr>`;
}

function probeRow(label: string, probe: ProbeFigures): string {
  const moved = `moved ${probe.moved} of ${probe.items} (${percent(probe.movedShare)}), raised ${probe.raised}`;
  const mean = `mean move ${signed(probe.meanMove)}, mean |move| ${decimal(probe.meanAbsoluteMove)}`;
  return `<tr><td>${escapeHtml(label)}</td><td>${escapeHtml(moved)}</td><td>${escapeHtml(mean)}</td></tr>`;
}

function behaviourTable(figures: AuditFigures): string {
  const retest = figures.retest;
  const retestText =
    figures.repeats > 1
      ? `changed ${retest.changed} of ${retest.items} (${percent(retest.changedShare)})`
      : 'one repeat: run with --repeat 3 to measure it';
  const rows = [
    rateRow('Vague but on topic, passed', figures.vague),
    rateRow('Specific but wrong, passed', figures.specificWrong),
    probeRow('Verbosity probe (filler added)', figures.verbosity),
    probeRow('Injection probe (asks for 10/10)', figures.injection),
    `<tr><td>Test–retest over ${plural(figures.repeats, 'repeat')}</td><td>${escapeHtml(retestText)}</td>` +
      `<td>${escapeHtml(`mean spread ${decimal(retest.meanSpread)}`)}</td></tr>`,
  ];
  return tableOf('<th>figure</th><th>the judge</th><th></th>', rows.join('\n'));
}

function disagreementRow(item: Disagreement, passScore: number): string {
  const where = item.file !== undefined ? `${item.file}${item.line !== undefined ? `:${item.line}` : ''}` : item.benchmark;
  const second = item.attempt === 2 ? ` ${tagLabel('2nd attempt')}` : '';
  const cells = [
    `<td><code>${escapeHtml(item.item)}</code><br>${tagLabel(escapeHtml(item.kind))} ${tagLabel(escapeHtml(item.type))}` +
      `<br><span class="note">${escapeHtml(where)}</span></td>`,
    `<td>${escapeHtml(item.question)}<br><span class="note">correct: ${escapeHtml(item.correct)}</span></td>`,
    `<td>${escapeHtml(item.answer)}${second}</td>`,
    `<td>${gradeBadge(item.gold, passScore)}<br><span class="note">${escapeHtml(item.rationale)}</span></td>`,
    `<td>${gradeBadge(item.judge, passScore)}<br><span class="note">${escapeHtml(item.comment)}</span></td>`,
  ];
  return `<tr>${cells.join('')}</tr>`;
}

function noGradeRow(entry: NoGrade): string {
  const raw = entry.raw.length > MAX_RAW_SHOWN ? `${entry.raw.slice(0, MAX_RAW_SHOWN)} …` : entry.raw;
  const ask = `<td><code>${escapeHtml(entry.ask)}</code></td>`;
  return `<tr>${ask}<td>${escapeHtml(entry.reason)}</td><td><code>${escapeHtml(raw)}</code></td></tr>`;
}

function costText(context: AuditReportContext): string {
  return context.cost === null ? `price of ${context.model} unknown` : `$${context.cost.toFixed(4)}`;
}

/** The whole page. */
export function renderJudgeAudit(figures: AuditFigures, context: AuditReportContext, options: RenderOptions = {}): string {
  const usage = figures.usage;
  const kpis = [
    kpi('kappa (κ), quadratic-weighted', decimal(figures.overall.kappa)),
    kpi('exact agreement', percent(figures.overall.exact)),
    kpi('bias (judge − gold)', signed(figures.overall.bias)),
    kpi('vague answers passed', percent(figures.vague.rate)),
    kpi('no grade', String(figures.noGrade.length)),
    kpi('cost', costText(context)),
  ];
  const disagreementRows = figures.disagreements.map((item) => disagreementRow(item, figures.passScore)).join('\n');
  const disagreementHead = '<th>item</th><th>question</th><th>answer</th><th>gold</th><th>the judge</th>';
  const disagreements = disagreementRows ? tableOf(disagreementHead, disagreementRows) : noteParagraph('None.');
  const noGradeRows = figures.noGrade.map(noGradeRow).join('\n');
  const noGrades = noGradeRows
    ? tableOf('<th>ask</th><th>why</th><th>raw reply</th>', noGradeRows)
    : noteParagraph('Every answer held a grade.');
  const cached = usage.cachedTokens === null ? 'no cache reported' : `${usage.cachedTokens} from the provider's cache`;
  const tokens = `${usage.promptTokens} prompt (${cached}) and ${usage.completionTokens} completion tokens in ${usage.requests} requests.`;
  const asked = `${figures.answered} of ${figures.asks} asks answered`;
  const subtitle = `${figures.items} items of ${plural(context.sets.length, 'grading set')} · ${asked} · pass score ${figures.passScore}`;
  const body = `<header>
<h1>Judge audit: ${escapeHtml(figures.judge)}</h1>
<p class="sub">${subtitle} · audit ${escapeHtml(context.id)}</p>
</header>
<div class="kpis">${kpis.join('')}</div>
<h2>Agreement with gold</h2>
${agreementTable(figures)}
${noteParagraph('Lenient: gold fails the answer and the judge passes it; harsh: the other way round. Bias is the mean of judge − gold.')}
<h2>Pass/fail at ${figures.passScore}</h2>
${passFailTable(figures)}
<h2>How the judge behaves</h2>
${behaviourTable(figures)}
<h2>Disagreements (${figures.disagreements.length})</h2>
${disagreements}
<h2>No grade (${figures.noGrade.length})</h2>
${noGrades}
${noteParagraph(escapeHtml(`${tokens} Cost: ${costText(context)}. Sets: ${context.sets.join(', ')}.`))}`;
  return page(`MarathonMemBench — judge audit of ${figures.judge}`, body, [], options);
}
