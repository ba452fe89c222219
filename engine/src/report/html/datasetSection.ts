/**
 * The dataset's metric of imported benchmarks (`mmb import`) on the HTML pages: on a run's page its
 * accuracy per question type or category, on the trends page each dataset and agent pooled; both in
 * the pass-rate table the trap story uses, under the rule and above the on-policy note, worded once
 * in `report/datasetAccuracy.ts`. Nothing for any other benchmark.
 */
import { accuracyRule, ON_POLICY_NOTE, type DatasetAccuracy, type DatasetMetric } from '../datasetAccuracy';
import { escapeHtml } from './page';
import { noteParagraph } from './markup';
import { rateTable } from './trapStory';

const WILSON = 'with 95 % Wilson intervals, to set beside published figures';

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** A run's section, after its figures; empty for a run of any other benchmark or a partial run. */
export function datasetSection(metric: DatasetMetric | undefined): string {
  if (!metric) return '';
  const rule = `${capitalised(accuracyRule(metric.passScore))} per ${metric.by}, ${WILSON}.`;
  return `<section class="dataset" data-dataset="${escapeHtml(metric.dataset)}">
<h2 id="dataset">${escapeHtml(metric.dataset)}: the dataset's metric</h2>
<p class="sub">${escapeHtml(rule)}</p>
${rateTable(capitalised(metric.by), metric.rates, 'its checks')}
${noteParagraph(escapeHtml(metric.note))}
</section>`;
}

/** The trends page's first section: per dataset and agent, the full runs' checks pooled by type; empty without an imported run. */
export function datasetTrendsSection(groups: readonly DatasetAccuracy[], passScore: number): string {
  if (!groups.length) return '';
  const sections = groups.map((group) => {
    const runs = `${group.runs} full run${group.runs === 1 ? '' : 's'}`;
    const rule = `${capitalised(accuracyRule(passScore))} per ${group.by} over ${runs}, ${WILSON}.`;
    return `<section class="group dataset" data-dataset="${escapeHtml(group.group)}">
<h2>${escapeHtml(group.group)}</h2>
<p class="sub">${escapeHtml(rule)}</p>
${rateTable(capitalised(group.by), group.rates, 'its checks in every run')}
</section>`;
  });
  return `${sections.join('\n')}\n${noteParagraph(escapeHtml(ON_POLICY_NOTE))}`;
}
