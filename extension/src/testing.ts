/**
 * The Test Explorer: benchmark → chapter → check, and each graded check as a passed or failed
 * test with expected and actual values, located at the trap writes aimed at it. The default
 * profile rehearses on the stand-in (no key, no cost); a profile per run of config.jsonc runs it
 * for real after asking once, naming the run and its models. Checks of a run that could not
 * start are errored with the engine's reason. Runs started elsewhere (the run view, a code
 * lens) report here too.
 */
import type { ChildProcess } from 'node:child_process';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { requestedRunName, type RunRequest, type RunState } from '../../engine/src/api';
import { paidModels } from './runInfo';
import { testRunRequest } from './testReport';
import { reportChecks } from './testResults';
import type { RunsHub } from './runsHub';

const itemId = {
  benchmark: (b: string) => `b:${b}`,
  chapter: (b: string, file: string) => `c:${b}/${file}`,
  check: (b: string, id: string) => `k:${b}/${id}`,
};

export class BenchmarkTests implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('marathonMemBench', 'MarathonMemBench');
  private profiles: vscode.TestRunProfile[] = [];
  private profileKey = '';
  private published = new Set<string>();
  /** Runs a test run of ours waits for: it reports them, the watcher does not. */
  private watching = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly wb: RunsHub,
    private readonly notifyError: (error: unknown) => void,
  ) {
    this.controller.resolveHandler = async () => this.refresh();
    this.controller.refreshHandler = async () => this.refresh();
    this.disposables.push(
      wb.onDidChange(() => {
        this.refresh();
        this.publishFinished();
      }),
    );
    this.refresh();
    // Runs finished before this window opened are not published: only what finishes while it watches.
    for (const r of wb.runs()) if (r.status === 'finished' || r.status === 'crashed') this.published.add(`${r.name}@${r.finishedAt ?? ''}`);
  }

  refresh(): void {
    const items: vscode.TestItem[] = [];
    for (const dir of this.wb.benchmarkDirs()) {
      const b = this.wb.benchmark(dir);
      if (!b) continue;
      const top = this.controller.createTestItem(itemId.benchmark(b.name), b.title, vscode.Uri.file(join(dir, 'benchmark.json')));
      for (const chapter of b.chapters) {
        const checks = b.checks.filter((c) => c.file === chapter.file);
        if (checks.length === 0) continue;
        const ch = this.controller.createTestItem(
          itemId.chapter(b.name, chapter.file),
          chapter.file,
          vscode.Uri.file(join(dir, chapter.file)),
        );
        for (const c of checks) {
          const item = this.controller.createTestItem(
            itemId.check(b.name, c.check.id),
            `❓ ${c.check.id} ${c.check.question}`,
            vscode.Uri.file(join(dir, c.file)),
          );
          // Go to Test, a double-click and the test gutter land on the check; the editor's own score
          // mark moved inline (editor.ts) to leave the gutter to VS Code's test icon.
          const r = c.check.range;
          item.range = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
          item.description = c.check.type ?? '';
          ch.children.add(item);
        }
        top.children.add(ch);
      }
      items.push(top);
    }
    this.controller.items.replace(items);
    this.refreshProfiles();
  }

  private refreshProfiles(): void {
    const runs = this.wb.results.config().runs;
    const key = runs.map((r) => `${r.name}:${r.benchmark}:${r.agent}`).join('|');
    if (key === this.profileKey) return;
    this.profileKey = key;
    for (const p of this.profiles) p.dispose();
    // The default profile costs nothing: Run Tests and a gutter ▷ rehearse; a real run is chosen by name.
    this.profiles = [
      this.controller.createRunProfile(
        'Rehearse on the stand-in (no key, no cost)',
        vscode.TestRunProfileKind.Run,
        (request, token) => this.run(undefined, undefined, request, token),
        true,
      ),
    ];
    this.profiles.push(
      ...runs.map((r) =>
        this.controller.createRunProfile(
          `${r.name} (${r.agent}, for real)`,
          vscode.TestRunProfileKind.Run,
          (request, token) => this.run(r.name, r.benchmark, request, token),
          false,
        ),
      ),
    );
  }

  /** The checks a request names, by benchmark. */
  private checksOf(request: vscode.TestRunRequest): Map<string, vscode.TestItem[]> {
    const out = new Map<string, vscode.TestItem[]>();
    const add = (item: vscode.TestItem) => {
      if (request.exclude?.includes(item)) return;
      if (item.id.startsWith('k:')) {
        const b = item.id.slice(2).split('/')[0]!;
        out.set(b, [...(out.get(b) ?? []), item]);
      } else item.children.forEach(add);
    };
    if (request.include) request.include.forEach(add);
    else this.controller.items.forEach(add);
    return out;
  }

  private async run(
    runName: string | undefined,
    benchmark: string | undefined,
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
  ): Promise<void> {
    // One test run per engine run, named as the run view names it, so Test Results groups each
    // check under the run that graded it.
    const byBenchmark = this.checksOf(request);
    for (const [name, items] of byBenchmark) {
      if (token.isCancellationRequested) break;
      if (benchmark && name !== benchmark) {
        const test = this.controller.createTestRun(request, runName, true);
        for (const i of items) test.skipped(i);
        test.appendOutput(`${runName} runs ${benchmark}, not ${name}: its checks are skipped.\r\n`);
        test.end();
        continue;
      }
      const dir = this.wb.benchmarkDirs().find((d) => basename(d) === name);
      const b = dir ? this.wb.benchmark(dir) : undefined;
      if (!dir || !b) continue;
      const ids = items.map((i) => i.id.split('/')[1]!);
      const { request: runRequest, start } = testRunRequest(b, ids, runName, this.wb.results.config().runs);
      const resultRun = requestedRunName(runRequest);
      const test = this.controller.createTestRun(request, resultRun, true);
      try {
        if (runName && !(await this.confirmSpending(runName, resultRun, runRequest))) {
          for (const i of items) test.skipped(i);
          continue;
        }
        for (const i of items) test.started(i);
        if (start)
          test.appendOutput(`Starting from ${start.chapter}, phase ${start.phase}: the earliest trap write these checks depend on.\r\n`);
        const state = await this.play(runRequest, resultRun, items, test, token);
        reportChecks(this.wb, test, { value: b, dir }, state, items, resultRun);
      } catch (e) {
        test.appendOutput(`${(e as Error).message}\r\n`);
        this.notifyError(e);
        break;
      } finally {
        test.end();
      }
    }
  }

  /** Starts the engine on the request and waits for it; a check of a run that did not start is errored with why. */
  private async play(
    runRequest: RunRequest,
    resultRun: string,
    items: readonly vscode.TestItem[],
    test: vscode.TestRun,
    token: vscode.CancellationToken,
  ): Promise<RunState | undefined> {
    this.watching.add(resultRun);
    try {
      const { engine } = await this.wb.startEngine(runRequest);
      const state = await this.waitFor(resultRun, engine, token, test);
      this.published.add(`${resultRun}@${state?.finishedAt ?? ''}`);
      return state;
    } catch (e) {
      for (const i of items) test.errored(i, new vscode.TestMessage(`${resultRun} did not start: ${(e as Error).message}`));
      throw e;
    } finally {
      this.watching.delete(resultRun);
    }
  }

  /**
   * A real run spends money: asked once, naming the run and the paid models it calls, and that a
   * whole run deletes the results it has. The rehearsal profile never asks.
   */
  private async confirmSpending(runName: string, resultRun: string, request: RunRequest): Promise<boolean> {
    const models = paidModels(this.wb.results.config(), runName);
    const existing = this.wb.runs().find((r) => r.name === resultRun);
    const deletes =
      request.kind === 'configured' && existing && existing.status !== 'not started' ? ` Its results so far are deleted.` : '';
    const calls = models.length
      ? `It calls ${models.join(', ')}, which may cost money.`
      : `It calls its agent's own models, which may cost money.`;
    const ok = await vscode.window.showWarningMessage(
      `Run ${resultRun} for real?`,
      { modal: true, detail: `${calls}${deletes} The default profile rehearses on the stand-in for free.` },
      'Run for real',
    );
    return ok === 'Run for real';
  }

  /** Waits for the engine process to end, telling progress; a cancelled test run stops it (it stays resumable). */
  private async waitFor(
    run: string,
    engine: ChildProcess,
    token: vscode.CancellationToken,
    test: vscode.TestRun,
  ): Promise<RunState | undefined> {
    const ended = new Promise<void>((resolve) => {
      if (engine.exitCode !== null || engine.signalCode !== null) resolve();
      engine.once('exit', () => resolve());
    });
    const cancel = token.onCancellationRequested(() => engine.kill('SIGINT'));
    let lastGraded = 0;
    let lastWaiting: string | undefined;
    let done = false;
    void ended.then(() => {
      done = true;
    });
    try {
      while (!done) {
        const view = this.wb.runs().find((r) => r.name === run);
        if (view && view.graded > lastGraded) {
          test.appendOutput(`${run}: ${view.graded} checks graded, now in ${view.chapter} phase ${view.phase}\r\n`);
          lastGraded = view.graded;
        }
        // A wait on the agent is journaled every 10 s: each says how long so far, so a slow agent never looks like a hang.
        if (view?.waiting && view.waiting !== lastWaiting) test.appendOutput(`${run}: ${view.waiting}\r\n`);
        lastWaiting = view?.waiting;
        await Promise.race([ended, new Promise((r) => setTimeout(r, 500))]);
      }
    } finally {
      cancel.dispose();
    }
    const failure = this.wb.failure(run);
    if (failure) test.appendOutput(`${run} ${failure.couldNotStart ? 'could not start' : 'stopped'}: ${failure.reason}\r\n`);
    return this.wb.results.state(run);
  }

  /** Runs that finished while the window watched (from the panel or a code lens) report their checks. */
  private publishFinished(): void {
    for (const r of this.wb.runs()) {
      if ((r.status !== 'finished' && r.status !== 'crashed') || this.watching.has(r.name)) continue;
      const key = `${r.name}@${r.finishedAt ?? ''}`;
      if (this.published.has(key)) continue;
      this.published.add(key);
      const dir = this.wb.benchmarkDirs().find((d) => basename(d) === r.benchmark);
      const b = dir ? this.wb.benchmark(dir) : undefined;
      const state = this.wb.results.state(r.name);
      if (!dir || !b || !state) continue;
      const items = b.checks
        .filter((c) => state.grades[c.check.id]?.length)
        .map((c) =>
          this.controller.items
            .get(itemId.benchmark(b.name))
            ?.children.get(itemId.chapter(b.name, c.file))
            ?.children.get(itemId.check(b.name, c.check.id)),
        )
        .filter((i): i is vscode.TestItem => !!i);
      if (items.length === 0) continue;
      const test = this.controller.createTestRun(new vscode.TestRunRequest(items), r.name, true);
      reportChecks(this.wb, test, { value: b, dir }, state, items, r.name);
      test.end();
    }
  }

  dispose(): void {
    for (const p of this.profiles) p.dispose();
    for (const d of this.disposables) d.dispose();
    this.controller.dispose();
  }
}
