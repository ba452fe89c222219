/**
 * The engine's door to the editor: everything `extension/` may use of `engine/`, and nothing
 * else (the lint fails an import of any other engine module from the extension). What crosses:
 * the `results/` layout and its readers, the run-state and chat types, the typed `mmb run`
 * request with the names of the runs it makes, config.jsonc's run adder (*Add a run…*), the score bands, the webview messages, and the
 * HTML views (the runs index among them), which the editor shows in a webview as the CLI writes them to files. Runs
 * themselves cross only as processes: the editor starts `mmb run`, never the runner.
 */
import { FileRunStore } from '../run/store';
import type { RunState } from '../state/runState';

export * from '../protocol/layout';
export * from '../protocol/runRequest';
export * from '../protocol/scores';
export * from '../protocol/messages';
export { parseJsonLines, readJsonLines, type JsonLines } from '../jsonl';
export type { ChatMessage, ToolCall, Usage } from '../protocol/chat';
export type { Grade, LiveFact, LiveSheet, PhaseRange, Position, RunState, TranscriptEntry, TrueStatus } from '../state/runState';
export { isPartialRun, isPartialState, type PhaseSelection } from '../state/partialRule';
export { countsAgainstAgent, trapPlayedBefore, type GradePlay } from '../report/counted';
export { readLock, signalRunEngine, type RunLock } from '../workspace/lock';
export {
  benchmarkFolderOf,
  BENCHMARKS_DIR,
  findBenchmarkFolders,
  isBenchmarkFolder,
  readBenchmarkFolder,
  readConfigText,
} from '../workspace/folders';
export { plannedChecks, textInRun } from '../report/summary';
export { isStandInRun, standInNote } from '../report/standInNote';
export { memorySnapshotNumbers, readMemorySnapshot, readMemorySnapshots, type MemorySnapshot } from '../report/memory';
export { runRegrades, type RegradeView } from '../report/regradeView';
export { workspaceMasker } from '../workspaceSecrets';
export { compareRuns, computeTrends, renderComparison, renderRunReport, renderTrends, runView, type RenderOptions } from '../report/html';
export { damagedRow, indexRow, renderRunsIndex, runsIndex, type IndexRow } from '../report/html';
export { RunDamaged } from '../errors';
export {
  loadRunBenchmark,
  runBenchmarkReader,
  trendsBenchmarks,
  type RunBenchmark,
  type RunBenchmarkReader,
} from '../workspace/reportBenchmark';
export type { ReportWorkspace } from '../workspace/results';
export { waitText } from '../run/agentWait';
export { withRunAdded, type RunEntry } from '../cli/configRuns';

/**
 * The state of the run in `dir` (`state.json` and `journal.jsonl` replayed), or undefined for a
 * run never started; throws `RunDamaged` (its `file` and `what` to show) when a file of it is not
 * what the engine writes.
 */
export function readRunState(dir: string): RunState | undefined {
  return new FileRunStore(dir).load();
}
