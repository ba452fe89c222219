/** What a benchmark covers: facts, where sheets are told, checks and traps by type, distances. */
import { allPhases, distance, type Benchmark } from './benchmark';
import { CHECK_TYPES, TRAP_TYPES, type CheckType, type TrapType } from './model';
import { liveFacts } from './sheet';

export interface PhaseLocation {
  file: string;
  line: number;
  phase: string;
}

export interface Coverage {
  benchmark: string;
  chapters: number;
  phases: number;
  sheets: { name: string; facts: number; toldIn: PhaseLocation[] }[];
  checks: { total: number; byType: Record<CheckType | 'untyped', number> };
  traps: {
    total: number;
    byType: Record<TrapType, number>;
    list: {
      type: TrapType;
      file: string;
      line: number;
      facts: string[];
      checks: { id: string; found: boolean; chapters?: number; sessionSwitch?: boolean }[];
    }[];
  };
}

export function coverage(benchmark: Benchmark): Coverage {
  const told = new Map<string, PhaseLocation[]>();
  const seen = new Set<string>();
  let phases = 0;
  for (const { chapter, phase } of allPhases(benchmark)) {
    phases++;
    for (const ref of phase.sheetRefs) {
      if (!benchmark.sheets.has(ref.sheet)) continue;
      const at = { file: chapter.file, line: phase.headingRange.start.line + 1, phase: phase.title };
      const key = JSON.stringify([ref.sheet, at.file, at.line]);
      if (seen.has(key)) continue;
      seen.add(key);
      const list = told.get(ref.sheet) ?? [];
      list.push(at);
      told.set(ref.sheet, list);
    }
  }
  const checkTypes = Object.fromEntries([...Object.keys(CHECK_TYPES), 'untyped'].map((t) => [t, 0])) as Record<
    CheckType | 'untyped',
    number
  >;
  for (const c of benchmark.checks) checkTypes[c.check.type ?? 'untyped']++;
  const trapTypes = Object.fromEntries(Object.keys(TRAP_TYPES).map((t) => [t, 0])) as Record<TrapType, number>;
  const checks = new Map(benchmark.checks.map((c) => [c.check.id, c]));
  const list = benchmark.traps.map((t) => {
    trapTypes[t.trap.type]++;
    return {
      type: t.trap.type,
      file: t.file,
      line: t.trap.range.start.line + 1,
      facts: t.trap.facts.map((f) => `${f.sheet}#${f.id}`),
      checks: t.trap.targets.map((target) => {
        const check = checks.get(target.name);
        return check ? { id: target.name, found: true, ...distance(benchmark, t, check) } : { id: target.name, found: false };
      }),
    };
  });
  return {
    benchmark: benchmark.name,
    chapters: benchmark.chapters.length,
    phases,
    sheets: [...benchmark.sheets.values()].map((s) => ({ name: s.name, facts: liveFacts(s).length, toldIn: told.get(s.name) ?? [] })),
    checks: { total: benchmark.checks.length, byType: checkTypes },
    traps: { total: benchmark.traps.length, byType: trapTypes, list },
  };
}
