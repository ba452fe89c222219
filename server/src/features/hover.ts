/** Hover: a fact ref shows its fact; a check its type, answer and the traps aimed at it; a template its date. */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import {
  CHECK_TYPES,
  distance,
  expandTemplate,
  expandTemplatesIn,
  liveFact,
  startMoment,
  TRAP_TYPES,
  type Benchmark,
  type Position,
} from '../../../scenario/src';
import { elementAt } from '../locate';

export function getHover(b: Benchmark, file: string, p: Position, now: Date = new Date()): Hover | undefined {
  const e = elementAt(b, file, p);
  if (!e) return undefined;
  const md = (value: string, range = undefined as Hover['range']): Hover => ({
    contents: { kind: MarkupKind.Markdown, value },
    ...(range ? { range } : {}),
  });
  switch (e.kind) {
    case 'fact-ref': {
      const sheet = b.sheets.get(e.ref.sheet);
      const fact = sheet && liveFact(sheet, e.ref.id);
      if (!sheet || !fact) return undefined;
      const category = sheet.categories.find((c) => c.number === fact.category);
      return md(
        `**${sheet.name}#${fact.id}** — ${fact.text}\n\n${sheet.title ?? sheet.name} › ${category ? `${category.number}. ${category.title}` : ''} (\`${sheet.file}\`)`,
        e.ref.range,
      );
    }
    case 'fact': {
      const uses = b.chapters.flatMap((c) =>
        c.phases.flatMap((ph) => ph.factRefs.filter((r) => r.sheet === e.sheet.name && r.id === e.fact.id).map(() => c.file)),
      );
      return md(
        `**${e.sheet.name}#${e.fact.id}** — ${e.fact.text}\n\n${uses.length ? `Referenced ${uses.length}× (${[...new Set(uses)].join(', ')})` : 'Not referenced by any trap or phase.'}`,
        e.fact.idRange,
      );
    }
    case 'check': {
      const located = b.checks.find((c) => c.check === e.check);
      const traps = b.traps.filter((t) => t.trap.targets.some((x) => x.name === e.check.id));
      const lines = [
        `**Check ${e.check.id}**${e.check.type ? ` · ${e.check.type}: ${CHECK_TYPES[e.check.type]}` : ''}`,
        '',
        `**Q:** ${e.check.question}`,
        '',
        `**Correct answer:** ${e.check.answer || '—'}`,
      ];
      const start = b.manifest?.start_time;
      const expanded = start ? expandTemplatesIn(e.check.answer, {}, startMoment(start)) : e.check.answer;
      if (expanded !== e.check.answer) lines.push('', `→ **${expanded}** from this benchmark's start_time ${start}`);
      if (traps.length && located) {
        lines.push('', 'Trap writes aimed at it:');
        for (const t of traps) {
          const d = distance(b, t, located);
          lines.push(
            `- ${t.trap.type} ${t.trap.facts.map((f) => `${f.sheet}#${f.id}`).join(' ')} in \`${t.file}\` line ${t.trap.range.start.line + 1}: ${d.chapters === 0 ? 'same chapter' : `${d.chapters} chapter${d.chapters === 1 ? '' : 's'} before`}, ${d.sessionSwitch ? 'across a session switch' : 'same session'}`,
          );
        }
      } else if (e.check.type === 'HIST') {
        lines.push('', '_No trap write aims at this HIST check._');
      }
      return md(lines.join('\n'), e.check.idRange);
    }
    case 'check-type':
      return e.check.type ? md(`**${e.check.type}**: ${CHECK_TYPES[e.check.type]}`, e.check.typeRange) : undefined;
    case 'trap-type':
      return md(`**${e.trap.type}**: ${TRAP_TYPES[e.trap.type]}`, e.trap.typeRange);
    case 'trap-target': {
      const check = b.checks.find((c) => c.check.id === e.target.name);
      return check
        ? md(
            `**Check ${check.check.id}** (\`${check.file}\`): ${check.check.question}\n\n**Correct answer:** ${check.check.answer}`,
            e.target.range,
          )
        : undefined;
    }
    case 'template': {
      const today = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
      const lines = [`\`${e.template.raw}\` → **${expandTemplate(e.template, today)}** for a run starting now`];
      const start = b.manifest?.start_time;
      if (start) lines.push('', `→ **${expandTemplate(e.template, startMoment(start))}** from this benchmark's start_time ${start}`);
      return md(lines.join('\n'), e.template.range);
    }
    case 'sheet-ref': {
      const sheet = b.sheets.get(e.ref.sheet);
      return sheet
        ? md(
            `**${sheet.title ?? sheet.name}** (\`${sheet.file}\`): ${sheet.facts.filter((f) => !f.deleted).length} facts in ${sheet.categories.length} categories`,
            e.ref.range,
          )
        : undefined;
    }
    default:
      return undefined;
  }
}
