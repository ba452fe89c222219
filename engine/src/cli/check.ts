/** `mmb check`: validate benchmark folders (and config.jsonc) like a compiler would. */
import { existsSync, lstatSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  checkRunBenchmarks,
  coverage,
  loadBenchmark,
  validateBenchmark,
  CONFIG_FILE,
  type Benchmark,
  type Coverage,
  type Diagnostic,
} from '../../../scenario/src';
import { auditBenchmark } from '../audit/answerAudit';
import { gradingSetDiagnostics } from '../judge/gradingSetCheck';
import { describeFsError, findBenchmarkFolders, readBenchmarkFolder, readConfigFile, shownPath } from '../workspace/folders';
import { UsageError } from '../errors';
import { formatCoverage } from './coverageText';

export interface CheckOptions {
  /** Benchmark folders or config files; empty means the workspace at `cwd`. */
  targets: string[];
  json: boolean;
  coverage: boolean;
  /** Also rehearse each benchmark on the stand-in and audit its checks' answers against the live sheets. */
  audit?: boolean;
  cwd: string;
}

interface Checked {
  /** The folder the diagnostics' files are relative to, as the user would type it. */
  folder: string;
  diagnostics: Diagnostic[];
  coverage?: Coverage;
  /** What the summary line names: the benchmark folder, or the config file itself. */
  shown: string;
  /** The benchmark checked, for the audit. */
  benchmark?: Benchmark;
}

/** Runs the check and returns the process exit code: 1 if any error was found, else 0. */
export function runCheck(options: CheckOptions, write: (text: string) => void): number | Promise<number> {
  const targets = options.targets.length > 0 ? options.targets : workspaceTargets(options.cwd);
  const results = targets.map((target) => {
    // Resolved, not joined: an absolute target is itself, whatever the folder the command runs in.
    const path = resolve(options.cwd, target);
    return /\.jsonc?$/i.test(target) && basename(target) !== 'benchmark.json'
      ? checkConfig(path, target)
      : checkBenchmark(path, target, options.coverage);
  });
  if (!options.audit) return writeResults(options, results, write);
  return auditAll(results).then(() => writeResults(options, results, write));
}

/**
 * Adds the answer audit's diagnostics to each benchmark without errors: one that does not
 * validate is not rehearsed, since its errors already say what to fix first.
 */
async function auditAll(results: readonly Checked[]): Promise<void> {
  for (const result of results) {
    if (!result.benchmark || result.diagnostics.some((d) => d.severity === 'error')) continue;
    result.diagnostics.push(...(await auditBenchmark(result.benchmark)));
  }
}

function writeResults(options: CheckOptions, results: readonly Checked[], write: (text: string) => void): number {
  const all = results.flatMap((r) => r.diagnostics.map((d) => ({ r, d })));
  if (options.json) {
    const diagnostics = all.map(({ r, d }) => ({
      folder: r.folder,
      file: d.file,
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      endLine: d.range.end.line + 1,
      endColumn: d.range.end.character + 1,
      severity: d.severity,
      code: d.code,
      message: d.message,
      ...(d.related
        ? {
            related: d.related.map((x) => ({
              file: x.file,
              line: x.range.start.line + 1,
              column: x.range.start.character + 1,
              message: x.message,
            })),
          }
        : {}),
    }));
    const body = options.coverage ? { diagnostics, coverage: results.flatMap((r) => (r.coverage ? [r.coverage] : [])) } : { diagnostics };
    write(`${JSON.stringify(body, null, 2)}\n`);
  } else {
    for (const { r, d } of all) {
      const file = join(r.folder, d.file);
      write(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code} ${d.message}\n`);
    }
    for (const r of results) if (r.coverage) write(`\n${formatCoverage(r.coverage)}`);
    const errors = all.filter(({ d }) => d.severity === 'error').length;
    const warnings = all.length - errors;
    const what = results.length === 1 ? (results[0]?.shown ?? '') : `${results.length} targets`;
    write(`${all.length ? '\n' : ''}${what}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`);
  }
  return all.some(({ d }) => d.severity === 'error') ? 1 : 0;
}

function workspaceTargets(cwd: string): string[] {
  const targets = findBenchmarkFolders(cwd).map((p) => relative(cwd, p));
  if (existsSync(join(cwd, CONFIG_FILE))) targets.push(CONFIG_FILE);
  if (targets.length === 0) {
    throw new UsageError(
      `nothing to check in ${cwd}: no benchmarks/<name>/benchmark.json and no ${CONFIG_FILE}. ` +
        'Give a benchmark folder (mmb check path/to/benchmark), or start a workspace here with `mmb init`',
    );
  }
  return targets;
}

function checkBenchmark(path: string, target: string, withCoverage: boolean): Checked {
  const b = loadBenchmark(readBenchmarkFolder(path, target));
  const folder = target.replace(/[\\/]+$/, '');
  const diagnostics = [...validateBenchmark(b), ...gradingSetDiagnostics(path, b)];
  const checked: Checked = { folder, diagnostics, shown: folder, benchmark: b };
  if (withCoverage) checked.coverage = coverage(b);
  return checked;
}

function checkConfig(path: string, target: string): Checked {
  const folder = dirname(target) === '.' ? '' : dirname(target);
  const file = basename(target);
  try {
    lstatSync(path);
  } catch (e) {
    throw new UsageError(`cannot read ${shownPath(target)}: ${describeFsError(e)}`);
  }
  const { config, diagnostics } = readConfigFile(path, target, file);
  diagnostics.push(
    ...checkRunBenchmarks(
      config,
      findBenchmarkFolders(dirname(path)).map((p) => basename(p)),
      file,
    ),
  );
  return { folder, diagnostics, shown: target };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
