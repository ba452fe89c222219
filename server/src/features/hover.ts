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
  type Check,
  type Fact,
  type FactRef,
  type Position,
  type Sheet,
  type Template,
} from '../../../scenario/src';
import { elementAt } from '../locate';

export function getHover(benchmark: Benchmark, file: string, position: Position, now: Date = new Date()): Hover | undefined {
  const e = elementAt(benchmark, file, position);
  if (!e) return undefined;
  switch (e.kind) {
    case 'fact-ref':
      return factRefHover(benchmark, e.ref);
    case 'fact':
      return factHover(benchmark, e.sheet, e.fact);
    case 'check':
      return checkHover(benchmark, e.check);
    case 'check-type':
      return e.check.type ? markdown(`**${e.check.type}**: ${CHECK_TYPES[e.check.type]}`, e.check.typeRange) : undefined;
    case 'trap-type':
      return markdown(`**${e.trap.type}**: ${TRAP_TYPES[e.trap.type]}`, e.trap.typeRange);
    case 'trap-target': {
      const check = benchmark.checks.find((c) => c.check.id === e.target.name);
      if (!check) return undefined;
      const question = `**Check ${check.check.id}** (\`${check.file}\`): ${check.check.question}`;
      return markdown(`${question}\n\n**Correct answer:** ${check.check.answer}`, e.target.range);
    }
    case 'template':
      return templateHover(benchmark, e.template, now);
    case 'sheet-ref': {
      const sheet = benchmark.sheets.get(e.ref.sheet);
      if (!sheet) return undefined;
      const counts = `${sheet.facts.filter((f) => !f.deleted).length} facts in ${sheet.categories.length} categories`;
      return markdown(`**${sheet.title ?? sheet.name}** (\`${sheet.file}\`): ${counts}`, e.ref.range);
    }
    default:
      return undefined;
  }
}

function markdown(value: string, range?: Hover['range']): Hover {
  return { contents: { kind: MarkupKind.Markdown, value }, ...(range ? { range } : {}) };
}

function factRefHover(benchmark: Benchmark, ref: FactRef): Hover | undefined {
  const sheet = benchmark.sheets.get(ref.sheet);
  const fact = sheet && liveFact(sheet, ref.id);
  if (!sheet || !fact) return undefined;
  const category = sheet.categories.find((c) => c.number === fact.category);
  const place = `${sheet.title ?? sheet.name} › ${category ? `${category.number}. ${category.title}` : ''} (\`${sheet.file}\`)`;
  return markdown(`**${sheet.name}#${fact.id}** — ${fact.text}\n\n${place}`, ref.range);
}

function factHover(benchmark: Benchmark, sheet: Sheet, fact: Fact): Hover {
  const uses = benchmark.chapters.flatMap((c) =>
    c.phases.flatMap((ph) => ph.factRefs.filter((r) => r.sheet === sheet.name && r.id === fact.id).map(() => c.file)),
  );
  const usage = uses.length ? `Referenced ${uses.length}× (${[...new Set(uses)].join(', ')})` : 'Not referenced by any trap or phase.';
  return markdown(`**${sheet.name}#${fact.id}** — ${fact.text}\n\n${usage}`, fact.idRange);
}

function checkHover(benchmark: Benchmark, check: Check): Hover {
  const located = benchmark.checks.find((c) => c.check === check);
  const traps = benchmark.traps.filter((t) => t.trap.targets.some((x) => x.name === check.id));
  const lines = [
    `**Check ${check.id}**${check.type ? ` · ${check.type}: ${CHECK_TYPES[check.type]}` : ''}`,
    '',
    `**Q:** ${check.question}`,
    '',
    `**Correct answer:** ${check.answer || '—'}`,
  ];
  const start = benchmark.manifest?.start_time;
  const expanded = start ? expandTemplatesIn(check.answer, {}, startMoment(start)) : check.answer;
  if (expanded !== check.answer) lines.push('', `→ **${expanded}** from this benchmark's start_time ${start}`);
  if (traps.length && located) {
    lines.push('', 'Trap writes aimed at it:');
    for (const trap of traps) lines.push(trapWriteLine(benchmark, trap, located));
  } else if (check.type === 'HIST') {
    lines.push('', '_No trap write aims at this HIST check._');
  }
  return markdown(lines.join('\n'), check.idRange);
}

/** One trap write aimed at a check: its type, facts and place, and how far before the check it comes. */
function trapWriteLine(benchmark: Benchmark, trap: Benchmark['traps'][number], located: Benchmark['checks'][number]): string {
  const gap = distance(benchmark, trap, located);
  const facts = trap.trap.facts.map((f) => `${f.sheet}#${f.id}`).join(' ');
  const chapters = gap.chapters === 0 ? 'same chapter' : `${gap.chapters} chapter${gap.chapters === 1 ? '' : 's'} before`;
  const session = gap.sessionSwitch ? 'across a session switch' : 'same session';
  return `- ${trap.trap.type} ${facts} in \`${trap.file}\` line ${trap.trap.range.start.line + 1}: ${chapters}, ${session}`;
}

function templateHover(benchmark: Benchmark, template: Template, now: Date): Hover {
  const today = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  const lines = [`\`${template.raw}\` → **${expandTemplate(template, today)}** for a run starting now`];
  const start = benchmark.manifest?.start_time;
  if (start) lines.push('', `→ **${expandTemplate(template, startMoment(start))}** from this benchmark's start_time ${start}`);
  return markdown(lines.join('\n'), template.range);
}
