/**
 * The journal of a judge audit, `results/.judge/<audit-id>/journal.jsonl`: one line per ask
 * answered, written before the next ask goes out, so an audit killed at any moment resumes without
 * asking the judge twice. Lines are read back as untrusted: a damaged or malformed line is skipped
 * (and counted), and its ask is asked again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, truncateSync } from 'node:fs';
import { appendLine } from '../jsonl';
import { judgeSlug } from '../protocol/layout';
import { AUDIT_PROBE_NAMES, type AuditProbe } from './auditPlan';
import type { GradingItem } from './item';

/** One answered ask: the grade, or "no grade" with its reason; the raw reply either way. */
export interface AuditEntry {
  /** The ask's key (`askKey`). */
  ask: string;
  item: string;
  repeat: number;
  probe: AuditProbe;
  outcome: 'graded' | 'no-grade';
  /** The score as given, 0–10 (graded only). */
  score?: number;
  comment?: string;
  /** Why there is no grade (no-grade only). */
  reason?: string;
  raw: string;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's prefix cache, when it said so. */
  cachedTokens?: number;
  /** How long the judge took, in milliseconds. */
  ms: number;
}

export interface AuditJournal {
  /** The entries by ask key, the first of each. */
  entries: Map<string, AuditEntry>;
  /** Lines that were not an entry: skipped, their asks asked again. */
  damaged: number;
}

/** A line longer than this is no entry of ours (a raw reply is kept to a few thousand characters). */
const MAX_LINE_CHARS = 64_000;

/**
 * The audit id: the judge's name as a file name (`judgeSlug`), and a hash of the judge, the items asked (their
 * content, so an edited set is a new audit; not where they were read from) and the repeats.
 */
export function auditId(judge: string, items: readonly GradingItem[], repeats: number): string {
  const hash = createHash('sha256');
  const parts = [judge, String(repeats), ...items.map((item) => JSON.stringify({ ...item, file: undefined, line: undefined }))];
  for (const part of parts) hash.update(`${part.length}:${part}`);
  return `${judgeSlug(judge)}-${hash.digest('hex').slice(0, 10)}`;
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The entry a parsed line holds, or undefined when it is not one (wrong shape, a score out of range). */
export function auditEntryOf(value: unknown): AuditEntry | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const line = value as Record<string, unknown>;
  const shaped =
    isText(line.ask) &&
    isText(line.item) &&
    Number.isInteger(line.repeat) &&
    (AUDIT_PROBE_NAMES as unknown[]).includes(line.probe) &&
    isText(line.raw) &&
    isCount(line.promptTokens) &&
    isCount(line.completionTokens) &&
    isCount(line.ms) &&
    (line.cachedTokens === undefined || isCount(line.cachedTokens));
  if (!shaped) return undefined;
  if (line.outcome === 'graded') {
    const scored = isCount(line.score) && line.score <= 10 && isText(line.comment);
    return scored ? (line as unknown as AuditEntry) : undefined;
  }
  return line.outcome === 'no-grade' && isText(line.reason) ? (line as unknown as AuditEntry) : undefined;
}

/**
 * The journal as it stands; none when it does not exist. A last line cut short by a kill is cut
 * off the file, so that the next append starts a line of its own.
 */
export function readAuditJournal(file: string): AuditJournal {
  const journal: AuditJournal = { entries: new Map(), damaged: 0 };
  if (!existsSync(file)) return journal;
  const text = readFileSync(file, 'utf8');
  const whole = text.lastIndexOf('\n') + 1;
  if (whole < text.length) {
    truncateSync(file, Buffer.byteLength(text.slice(0, whole)));
    journal.damaged++;
  }
  for (const line of text.slice(0, whole).split('\n')) {
    if (!line.trim()) continue;
    const entry = line.length <= MAX_LINE_CHARS ? parsedEntry(line) : undefined;
    if (!entry) journal.damaged++;
    else if (!journal.entries.has(entry.ask)) journal.entries.set(entry.ask, entry);
  }
  return journal;
}

function parsedEntry(line: string): AuditEntry | undefined {
  try {
    return auditEntryOf(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/** Appends one entry as a whole line (a full disk is `DiskFull`, the file left whole). */
export function appendAuditEntry(file: string, entry: AuditEntry): void {
  appendLine(file, entry);
}
