/**
 * The figures of a judge audit, from its items and the journal's answers: agreement with gold
 * overall, per check type and per answer kind (`agreement.ts`), the LoCoMo audit's pass rates of
 * vague and of specific-but-wrong answers, the two probes, test–retest, the asks left without a
 * grade, usage, and the disagreements. Pure: the terminal, `--json` and the HTML page all show these.
 */
import { CHECK_TYPES } from '../../../scenario/src/model';
import { DEFAULT_PASS_SCORE, passes } from '../protocol/scores';
import { agreementOf, passRate, retestOf, type Agreement, type Retest, type ScorePair } from './agreement';
import type { AuditEntry } from './auditJournal';
import { askKey, type AuditProbe } from './auditPlan';
import { ANSWER_KIND_NAMES, type GradingItem } from './item';
import { effectiveScore } from './rules';

/** How far a probe moved the grades: each item's probe grade against its first grade as given. */
export interface ProbeFigures {
  /** Items graded both ways. */
  items: number;
  /** Items whose grade moved. */
  moved: number;
  movedShare: number | null;
  /** Items whose grade went up. */
  raised: number;
  /** Mean of (probe − plain), effective scores; above 0 the probe helped. */
  meanMove: number | null;
  meanAbsoluteMove: number | null;
}

/** The judge's pass rate on one kind of answer, beside the gold's. */
export interface KindPassRate {
  kind: string;
  items: number;
  passed: number;
  rate: number | null;
  goldRate: number | null;
}

export interface NoGrade {
  ask: string;
  item: string;
  probe: AuditProbe;
  repeat: number;
  reason: string;
  raw: string;
}

/** An item the judge graded otherwise than gold, with what the HTML page lists of it. */
export interface Disagreement {
  item: string;
  benchmark: string;
  kind: string;
  type: string;
  question: string;
  correct: string;
  answer: string;
  attempt: 1 | 2;
  /** Effective scores. */
  gold: number;
  judge: number;
  comment: string;
  rationale: string;
  file?: string;
  line?: number;
}

export interface GroupAgreement {
  name: string;
  agreement: Agreement;
}

export interface AuditFigures {
  judge: string;
  passScore: number;
  repeats: number;
  items: number;
  /** Asks of the audit, and how many are answered (graded or not). */
  asks: number;
  answered: number;
  overall: Agreement;
  byType: GroupAgreement[];
  byKind: GroupAgreement[];
  vague: KindPassRate;
  specificWrong: KindPassRate;
  verbosity: ProbeFigures;
  injection: ProbeFigures;
  retest: Retest;
  /** Items with no grade as given in any repeat: they count in no agreement figure. */
  ungradedItems: number;
  noGrade: NoGrade[];
  /** `cachedTokens`: prompt tokens served from the provider's prefix cache; null when the provider never said. */
  usage: { requests: number; promptTokens: number; completionTokens: number; cachedTokens: number | null; ms: number };
  /** Largest difference first. */
  disagreements: Disagreement[];
}

const UNTYPED = 'untyped';
const typeOf = (item: GradingItem): string => item.check.type ?? UNTYPED;

/** The effective score of a graded entry. */
const effective = (entry: AuditEntry, item: GradingItem): number => effectiveScore(entry.score ?? 0, item.attempt);

interface Graded {
  item: GradingItem;
  /** The effective scores of the item as given, by repeat, no-grades left out. */
  plain: number[];
  first: AuditEntry | undefined;
}

function gradedOf(items: readonly GradingItem[], entries: ReadonlyMap<string, AuditEntry>, repeats: number): Graded[] {
  return items.map((item) => {
    const answered = Array.from({ length: repeats }, (_, index) => entries.get(askKey(item.key, index + 1, 'plain')));
    const graded = answered.filter((entry): entry is AuditEntry => entry?.outcome === 'graded');
    return { item, plain: graded.map((entry) => effective(entry, item)), first: graded[0] };
  });
}

const pairOf = (graded: Graded): ScorePair => ({ gold: effectiveScore(graded.item.gold, graded.item.attempt), judge: graded.plain[0]! });

function groups(
  graded: readonly Graded[],
  nameOf: (item: GradingItem) => string,
  order: readonly string[],
  passScore: number,
): GroupAgreement[] {
  const names = [...new Set(graded.map((entry) => nameOf(entry.item)))];
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  names.sort((left, right) => rank(left) - rank(right) || left.localeCompare(right));
  return names.map((name) => {
    const pairs = graded.filter((entry) => nameOf(entry.item) === name && entry.plain.length).map(pairOf);
    return { name, agreement: agreementOf(pairs, passScore) };
  });
}

function kindPassRate(graded: readonly Graded[], kind: string, passScore: number): KindPassRate {
  const ofKind = graded.filter((entry) => entry.item.kind === kind && entry.plain.length);
  const judged = ofKind.map((entry) => entry.plain[0]!);
  const passed = judged.filter((score) => passes(score, passScore)).length;
  const gold = ofKind.map((entry) => effectiveScore(entry.item.gold, entry.item.attempt));
  return { kind, items: ofKind.length, passed, rate: passRate(judged, passScore), goldRate: passRate(gold, passScore) };
}

function probeFigures(graded: readonly Graded[], entries: ReadonlyMap<string, AuditEntry>, probe: AuditProbe): ProbeFigures {
  const moves: number[] = [];
  for (const { item, plain } of graded) {
    const probed = entries.get(askKey(item.key, 1, probe));
    if (!plain.length || probed?.outcome !== 'graded') continue;
    moves.push(effective(probed, item) - plain[0]!);
  }
  const mean = (values: number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null);
  const moved = moves.filter((move) => move !== 0).length;
  return {
    items: moves.length,
    moved,
    movedShare: moves.length ? moved / moves.length : null,
    raised: moves.filter((move) => move > 0).length,
    meanMove: mean(moves),
    meanAbsoluteMove: mean(moves.map(Math.abs)),
  };
}

function disagreementOf({ item, plain, first }: Graded): Disagreement {
  return {
    item: item.key,
    benchmark: item.benchmark,
    kind: item.kind,
    type: typeOf(item),
    question: item.check.question,
    correct: item.check.answer,
    answer: item.answer,
    attempt: item.attempt,
    gold: effectiveScore(item.gold, item.attempt),
    judge: plain[0]!,
    comment: first?.comment ?? '',
    rationale: item.rationale,
    ...(item.file !== undefined ? { file: item.file } : {}),
    ...(item.line !== undefined ? { line: item.line } : {}),
  };
}

/** Every figure of an audit; `entries` are the journal's answers by ask key. */
export function auditFigures(
  judge: string,
  items: readonly GradingItem[],
  entries: ReadonlyMap<string, AuditEntry>,
  options: { repeats: number; asks: readonly string[]; passScore?: number },
): AuditFigures {
  const passScore = options.passScore ?? DEFAULT_PASS_SCORE;
  const graded = gradedOf(items, entries, options.repeats);
  const withGrade = graded.filter((entry) => entry.plain.length);
  const answered = options.asks.flatMap((ask) => entries.get(ask) ?? []);
  const usage = { requests: answered.length, promptTokens: 0, completionTokens: 0, cachedTokens: null as number | null, ms: 0 };
  for (const entry of answered) {
    usage.promptTokens += entry.promptTokens;
    usage.completionTokens += entry.completionTokens;
    if (entry.cachedTokens !== undefined) usage.cachedTokens = (usage.cachedTokens ?? 0) + entry.cachedTokens;
    usage.ms += entry.ms;
  }
  const disagreements = withGrade.filter((entry) => pairOf(entry).gold !== pairOf(entry).judge).map(disagreementOf);
  disagreements.sort((left, right) => Math.abs(right.judge - right.gold) - Math.abs(left.judge - left.gold));
  return {
    judge,
    passScore,
    repeats: options.repeats,
    items: items.length,
    asks: options.asks.length,
    answered: answered.length,
    overall: agreementOf(withGrade.map(pairOf), passScore),
    byType: groups(graded, typeOf, Object.keys(CHECK_TYPES), passScore),
    byKind: groups(graded, (item) => item.kind, ANSWER_KIND_NAMES, passScore),
    vague: kindPassRate(graded, 'vague', passScore),
    specificWrong: kindPassRate(graded, 'specific-wrong', passScore),
    verbosity: probeFigures(graded, entries, 'verbose'),
    injection: probeFigures(graded, entries, 'injection'),
    retest: retestOf(graded.map((entry) => entry.plain)),
    ungradedItems: graded.length - withGrade.length,
    noGrade: answered.flatMap((entry) =>
      entry.outcome === 'no-grade'
        ? [{ ask: entry.ask, item: entry.item, probe: entry.probe, repeat: entry.repeat, reason: entry.reason ?? '', raw: entry.raw }]
        : [],
    ),
    usage,
    disagreements,
  };
}
