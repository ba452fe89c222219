/** The human-readable form of a benchmark's coverage, for `mmb check --coverage`. */
import type { Coverage } from '../../../scenario/src';

export function formatCoverage(c: Coverage): string {
  const lines = [`Coverage of ${c.benchmark}: ${c.chapters} chapters, ${c.phases} phases`];
  const width = Math.max(5, ...c.sheets.map((s) => s.name.length));
  const facts = c.sheets.reduce((n, s) => n + s.facts, 0);
  lines.push(`  Sheets: ${c.sheets.length}, ${facts} facts`);
  for (const s of c.sheets) {
    const where = s.toldIn.length ? s.toldIn.map((p) => `${p.file}:${p.line} "${p.phase}"`).join(', ') : 'never told';
    lines.push(`    ${s.name.padEnd(width)} ${String(s.facts).padStart(4)} facts  ${where}`);
  }
  lines.push(`  Checks: ${c.checks.total}  ${counts(c.checks.byType)}`);
  lines.push(`  Traps: ${c.traps.total}  ${counts(c.traps.byType)}`);
  for (const t of c.traps.list) {
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
