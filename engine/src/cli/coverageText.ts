/** The human-readable form of a benchmark's coverage, for `mmb check --coverage`. */
import type { Coverage } from '../../../scenario/src';

export function formatCoverage(coverage: Coverage): string {
  const lines = [`Coverage of ${coverage.benchmark}: ${coverage.chapters} chapters, ${coverage.phases} phases`];
  const width = Math.max(5, ...coverage.sheets.map((s) => s.name.length));
  const facts = coverage.sheets.reduce((n, s) => n + s.facts, 0);
  lines.push(`  Sheets: ${coverage.sheets.length}, ${facts} facts`);
  for (const s of coverage.sheets) {
    const where = s.toldIn.length ? s.toldIn.map((p) => `${p.file}:${p.line} "${p.phase}"`).join(', ') : 'never told';
    lines.push(`    ${s.name.padEnd(width)} ${String(s.facts).padStart(4)} facts  ${where}`);
  }
  lines.push(`  Checks: ${coverage.checks.total}  ${counts(coverage.checks.byType)}`);
  lines.push(`  Traps: ${coverage.traps.total}  ${counts(coverage.traps.byType)}`);
  for (const t of coverage.traps.list) {
    const targets = t.checks
      .map((k) => {
        if (!k.found) return `${k.id} (no such check)`;
        const distance = k.chapters === 0 ? 'same chapter' : `${k.chapters} chapter${k.chapters === 1 ? '' : 's'} later`;
        return `${k.id} (${distance}, ${k.sessionSwitch ? 'across a session switch' : 'same session'})`;
      })
      .join(', ');
    lines.push(`    ${`${t.file}:${t.line}`.padEnd(16)} ${t.type.padEnd(10)} ${t.facts.join(' ')}${t.facts.length ? ' ' : ''}→ ${targets}`);
  }
  return `${lines.join('\n')}\n`;
}

function counts(byType: Record<string, number>): string {
  return Object.entries(byType)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${t} ${n}`)
    .join(' · ');
}
