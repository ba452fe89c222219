/** The grammars of the two marked lines of a phase: `❓` checks and `🪤` trap writes. */
import { diagnostic, type Diagnostic } from './diagnostics';
import { CHECK_TYPES, TRAP_TYPES, type Check, type CheckType, type FactRef, type Named, type Trap, type TrapType } from './model';
import { didYouMeanText, nearNames } from './suggest';
import { lineRange, range as makeRange } from './text';

export const CHECK_MARK = '❓';
export const TRAP_MARK = '🪤';

/** One line of a check: its text and 0-based number. The first is the `❓` line. */
export interface SourceLine {
  text: string;
  line: number;
}

const ANSWER = /correct answer:/i;

/** Skips the emoji variation selector (U+FE0F) that some editors type after a mark. */
function afterEmoji(text: string, pos: number): number {
  return text.charCodeAt(pos) === 0xfe0f ? pos + 1 : pos;
}

export function parseCheck(lines: readonly SourceLine[], file: string, out: Diagnostic[]): Check | undefined {
  const first = lines[0];
  if (!first) return undefined;
  const last = lines[lines.length - 1] ?? first;
  const mark = first.text.indexOf(CHECK_MARK);
  const whole = makeRange(first.line, mark, last.line, last.text.trimEnd().length);
  let pos = afterEmoji(first.text, mark + CHECK_MARK.length);
  const afterMark = first.text.slice(pos);
  const idMatch = /^\s*(\d+\.\d+)(?=\s|$|\[)/.exec(afterMark);
  if (!idMatch) {
    out.push(
      diagnostic(
        'malformed-check',
        file,
        lineRange(first.line, mark, first.text.trimEnd().length),
        'This check has no id: write `❓ N.M` first, as in `❓ 20.3 What dose of vitamin D am I taking? Correct answer: 4000 IU.`',
      ),
    );
    return undefined;
  }
  const id = idMatch[1] ?? '';
  const idStart = pos + idMatch[0].length - id.length;
  pos += idMatch[0].length;
  const check: Check = { id, idRange: lineRange(first.line, idStart, idStart + id.length), question: '', answer: '', range: whole };

  pos = parseCheckType(check, first, pos, file, out);

  const parts = lines.map((l, i) => ({ ...l, start: i === 0 ? pos : 0 }));
  let answerAt: { index: number; column: number } | undefined;
  parts.forEach((p, index) => {
    const m = ANSWER.exec(p.text.slice(p.start));
    if (m && !answerAt) answerAt = { index, column: p.start + m.index };
  });
  const join = (segments: string[]) =>
    segments
      .map((s) => s.trim())
      .filter(Boolean)
      .join(' ');
  if (!answerAt) {
    check.question = join(parts.map((p) => p.text.slice(p.start)));
    out.push(
      diagnostic(
        'malformed-check',
        file,
        whole,
        `Check ${id} has no correct answer: add \`Correct answer: …\` after the question, on the same line or an indented line below it.`,
      ),
    );
    return check;
  }
  const at = answerAt;
  const answerLine = parts[at.index] ?? parts[0]!;
  const answerStart = at.column + 'correct answer:'.length;
  check.question = join([
    ...parts.slice(0, at.index).map((p) => p.text.slice(p.start)),
    answerLine.text.slice(answerLine.start, at.column),
  ]);
  check.answer = join([answerLine.text.slice(answerStart), ...parts.slice(at.index + 1).map((p) => p.text)]);
  check.answerRange = makeRange(answerLine.line, at.column, last.line, last.text.trimEnd().length);
  if (!check.answer) {
    out.push(
      diagnostic(
        'malformed-check',
        file,
        check.answerRange,
        `Check ${id} has an empty correct answer: write the answer after \`Correct answer:\`.`,
      ),
    );
  }
  return check;
}

/** The optional `[TYPE]` after a check's id, set on the check when known; returns the column after it. */
function parseCheckType(check: Check, first: SourceLine, pos: number, file: string, out: Diagnostic[]): number {
  const typeMatch = /^\s*\[([^\]]*)\]/.exec(first.text.slice(pos));
  if (typeMatch) {
    const type = (typeMatch[1] ?? '').trim();
    const typeStart = pos + typeMatch[0].indexOf('[') + 1;
    const typeRange = lineRange(first.line, typeStart, typeStart + (typeMatch[1] ?? '').length);
    if (Object.hasOwn(CHECK_TYPES, type)) {
      check.type = type as CheckType;
      check.typeRange = typeRange;
    } else if (!type) {
      const types = Object.keys(CHECK_TYPES).join(', ');
      const message = `This check's type is empty: write one of ${types} between the brackets, or remove them.`;
      out.push(diagnostic('unknown-check-type', file, typeRange, message, { suggestions: Object.keys(CHECK_TYPES) }));
    } else {
      const suggestions = nearNames(type, Object.keys(CHECK_TYPES));
      out.push(
        diagnostic(
          'unknown-check-type',
          file,
          typeRange,
          `\`${type}\` is not a check type: use one of ${Object.keys(CHECK_TYPES).join(', ')}.${didYouMeanText(suggestions)}`,
          { suggestions },
        ),
      );
    }
    return pos + typeMatch[0].length;
  }
  return pos;
}

const ARROW = /→|->/;
const NOTE = /\s(—|--)(\s|$)/;
const CHECK_ID = /^\d+\.\d+$/;

/**
 * `🪤 TYPE [sheet#N.M ...] → CHECK-ID[, CHECK-ID ...] [— note]`. `refs` are the fact refs
 * already found on the line; those before the arrow become the trap's facts.
 */
export function parseTrap(text: string, line: number, refs: readonly FactRef[], file: string, out: Diagnostic[]): Trap | undefined {
  const mark = text.indexOf(TRAP_MARK);
  const end = text.trimEnd().length;
  const whole = lineRange(line, mark, end);
  const bad = (message: string, r = whole) => {
    out.push(diagnostic('malformed-trap', file, r, `${message} A trap line reads \`🪤 TYPE sheet#N.M → CHECK-ID, … — note\`.`));
    return undefined;
  };
  const bodyStart = afterEmoji(text, mark + TRAP_MARK.length);
  const noteMatch = NOTE.exec(text.slice(bodyStart));
  const bodyEnd = noteMatch ? bodyStart + noteMatch.index : end;
  const body = text.slice(bodyStart, bodyEnd);
  const typeMatch = /^\s*([^\s→]+)/.exec(body);
  if (!typeMatch || ARROW.test(typeMatch[1] ?? '') || (typeMatch[1] ?? '').includes('#')) {
    return bad('This trap has no type: write one of ' + Object.keys(TRAP_TYPES).join(', ') + ' after 🪤.');
  }
  const type = typeMatch[1] ?? '';
  const typeStart = bodyStart + typeMatch[0].length - type.length;
  const typeRange = lineRange(line, typeStart, typeStart + type.length);
  const arrow = ARROW.exec(text.slice(typeStart + type.length, bodyEnd));
  if (!arrow) return bad('This trap names no check: add `→` and the ids of the checks that catch it.');
  const arrowAt = typeStart + type.length + arrow.index;
  const targetsStart = arrowAt + arrow[0].length;

  const facts = refs.filter((r) => r.range.start.character > typeStart && r.range.end.character <= arrowAt);
  let cursor = typeStart + type.length;
  for (const ref of facts) {
    const gap = text.slice(cursor, ref.range.start.character);
    if (!/^[\s,]*$/.test(gap))
      return bad(`\`${gap.trim()}\` is not a fact reference (\`sheet#N.M\`).`, lineRange(line, cursor, ref.range.start.character));
    cursor = ref.range.end.character;
  }
  const tailGap = text.slice(cursor, arrowAt);
  if (!/^[\s,]*$/.test(tailGap))
    return bad(`\`${tailGap.trim()}\` is not a fact reference (\`sheet#N.M\`).`, lineRange(line, cursor, arrowAt));

  const targets: Named[] = [];
  for (const m of text.slice(targetsStart, bodyEnd).matchAll(/[^\s,]+/g)) {
    const start = targetsStart + m.index;
    const r = lineRange(line, start, start + m[0].length);
    if (!CHECK_ID.test(m[0])) return bad(`\`${m[0]}\` is not a check id (\`N.M\`).`, r);
    targets.push({ name: m[0], range: r });
  }
  if (targets.length === 0) return bad('This trap names no check after the arrow.');

  if (!Object.hasOwn(TRAP_TYPES, type)) {
    const suggestions = nearNames(type, Object.keys(TRAP_TYPES));
    out.push(
      diagnostic(
        'unknown-trap-type',
        file,
        typeRange,
        `\`${type}\` is not a trap type: use one of ${Object.keys(TRAP_TYPES).join(', ')}.${didYouMeanText(suggestions)}`,
        { suggestions },
      ),
    );
    return undefined;
  }
  const trap: Trap = { type: type as TrapType, typeRange, facts, targets, range: whole };
  const note = noteMatch ? text.slice(bodyEnd + noteMatch[0].length).trim() : '';
  if (note) trap.note = note;
  return trap;
}
