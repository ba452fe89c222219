/**
 * The HTML views, for the CLI and the editor's run panel alike: build a view model from run
 * states, then render it to one self-contained document (see docs/engine.md, "The HTML report").
 */
export { renderRunReport } from './run';
export { renderComparison } from './compare';
export { renderTrends } from './trends';
export { escapeHtml, type RenderOptions } from './page';
export { runView, type RunView, type SourceRef } from '../view';
export { compareRuns, type Comparison } from '../compare';
export { computeTrends, DEFAULT_FLAKY_THRESHOLD, type Trends } from '../trends';
