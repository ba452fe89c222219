/**
 * The HTML views, for the CLI and the editor's run panel alike: build a view model from run
 * states, then render it to one self-contained document (see docs/engine.md, "The HTML report").
 */
export { renderRunReport } from './runPage';
export { renderComparison } from './comparePage';
export { renderTrends } from './trendsPage';
export { renderProblem, renderRunsIndex, runPath } from './runsIndexPage';
export { escapeHtml, type RenderOptions } from './page';
export { runView, type RunView, type SourceRef } from '../runView';
export { compareRuns, type Comparison } from '../compare';
export { damagedRow, indexFilterOf, indexRow, runsIndex, type IndexFilter, type IndexRow, type RunsIndex } from '../runsIndex';
export { computeTrends, DEFAULT_FLAKY_THRESHOLD, type Trends } from '../trends';
