/**
 * A judge audit played: each ask not yet in the journal goes to the judge, and its answer is
 * journaled before another ask takes its place. A few asks are in flight at once (a real endpoint
 * answers in seconds); a kill loses only those, which the next run asks again. An endpoint failure
 * stops the audit with one line, and the next run resumes it.
 */
import { appendAuditEntry, readAuditJournal, type AuditEntry } from './auditJournal';
import type { AuditAsk } from './auditPlan';
import type { Judge } from './judge';

/** Asks in flight at once. */
export const AUDIT_CONCURRENCY = 4;

export interface AuditRunOptions {
  judge: Judge;
  asks: readonly AuditAsk[];
  journalFile: string;
  /** Aborted: no new ask goes out; those in flight are journaled when they answer. */
  signal?: AbortSignal;
  /** Called once the journal is read, with how many of the audit's asks it answers already. */
  onStart?: (journaled: number) => void;
  /** Called after each answer is journaled, with how many asks of the audit are answered. */
  onAnswered?: (entry: AuditEntry, answered: number, total: number) => void;
  concurrency?: number;
}

export interface AuditRun {
  /** Every answered ask, journaled before or now, by ask key. */
  entries: Map<string, AuditEntry>;
  /** Journal lines skipped as damaged (their asks were asked again). */
  damaged: number;
  /** Asks answered in this run (the rest came from the journal). */
  askedNow: number;
  /** Why the audit stopped before its end: the signal, or the endpoint's failure as one line. */
  stopped?: { by: 'signal' } | { by: 'endpoint'; error: string };
}

/** The one entry of a judge's answer to an ask. */
function entryOf(ask: AuditAsk, outcome: Awaited<ReturnType<Judge['grade']>>, ms: number): AuditEntry {
  const base = { ask: ask.key, item: ask.item.key, repeat: ask.repeat, probe: ask.probe };
  const { promptTokens, completionTokens, cachedTokens } = outcome.usage;
  const usage = { promptTokens, completionTokens, ...(cachedTokens !== undefined ? { cachedTokens } : {}), ms };
  return outcome.kind === 'graded'
    ? { ...base, outcome: 'graded', score: outcome.score, comment: outcome.comment, raw: outcome.raw, ...usage }
    : { ...base, outcome: 'no-grade', reason: outcome.reason, raw: outcome.raw, ...usage };
}

const errorLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();

/** Plays the asks the journal does not hold yet, and returns every answer. */
export async function runAudit(options: AuditRunOptions): Promise<AuditRun> {
  const journal = readAuditJournal(options.journalFile);
  const run: AuditRun = { entries: journal.entries, damaged: journal.damaged, askedNow: 0 };
  const pending = options.asks.filter((ask) => !run.entries.has(ask.key));
  const answeredBefore = options.asks.length - pending.length;
  options.onStart?.(answeredBefore);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pending.length && !run.stopped) {
      if (options.signal?.aborted) {
        run.stopped = { by: 'signal' };
        return;
      }
      const ask = pending[next++]!;
      const started = Date.now();
      let outcome: Awaited<ReturnType<Judge['grade']>>;
      try {
        outcome = await options.judge.grade(ask.judged);
      } catch (error) {
        // A request cut by the stop is the stop, not the endpoint's failure.
        run.stopped ??= options.signal?.aborted ? { by: 'signal' } : { by: 'endpoint', error: errorLine(error) };
        return;
      }
      const entry = entryOf(ask, outcome, Date.now() - started);
      appendAuditEntry(options.journalFile, entry);
      run.entries.set(entry.ask, entry);
      run.askedNow++;
      options.onAnswered?.(entry, answeredBefore + run.askedNow, options.asks.length);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? AUDIT_CONCURRENCY, pending.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return run;
}
