/** Quick fixes: "did you mean", a free id for a duplicate, a missing answer, a missing chapter, and silencing one diagnostic. */
import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from 'vscode-languageserver';
import { DIAGNOSTIC_CODES, liveFact, type Benchmark } from '../../../scenario/src';
import type { UriOf } from './navigation';
import { shorten } from '../../../scenario/src/plainText';

export function getCodeActions(benchmark: Benchmark, file: string, diagnostics: readonly Diagnostic[], uriOf: UriOf): CodeAction[] {
  const uri = uriOf(file);
  const lines = benchmark.lines.get(file);
  const actions: CodeAction[] = [];
  const fix = (title: string, d: Diagnostic, edits: TextEdit[], preferred = false): CodeAction => ({
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [d],
    isPreferred: preferred,
    edit: { changes: { [uri]: edits } },
  });
  for (const d of diagnostics) {
    if (d.source !== 'mmb') continue;
    const code = String(d.code);
    const suggestions = (d.data as { suggestions?: string[] } | undefined)?.suggestions ?? [];
    if (code === 'unknown-fact' && lines) {
      const sheet = benchmark.sheets.get(
        /([A-Za-z0-9_][\w-]*)#$/.exec(lines.lineText(d.range.start.line).slice(0, d.range.start.character))?.[1] ?? '',
      );
      // The diagnostic's own candidates (nearFactIds), so the fixes offer exactly what its message suggests.
      if (sheet) {
        suggestions.forEach((id, i) => {
          const text = liveFact(sheet, id)?.text;
          const title = text ? `Change to ${sheet.name}#${id}: ${shorten(text, 60)}` : `Change to ${sheet.name}#${id}`;
          actions.push(fix(title, d, [{ range: d.range, newText: id }], i === 0));
        });
      }
    } else {
      suggestions.forEach((s, i) => {
        const title = code === 'duplicate-check-id' || code === 'duplicate-fact-id' ? `Renumber to ${s}` : `Change to ${s}`;
        actions.push(fix(title, d, [{ range: d.range, newText: s }], i === 0));
      });
    }
    if (code === 'malformed-check' && /no correct answer/.test(typeof d.message === 'string' ? d.message : d.message.value)) {
      actions.push(
        fix('Add `Correct answer:`', d, [{ range: { start: d.range.end, end: d.range.end }, newText: ' Correct answer: ' }], true),
      );
    }
    if (code === 'missing-chapter' && lines) {
      const name = lines.lineText(d.range.start.line).slice(d.range.start.character, d.range.end.character);
      const target = uriOf(name);
      actions.push({
        title: `Create ${name}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        isPreferred: suggestions.length === 0,
        edit: {
          documentChanges: [
            { kind: 'create', uri: target, options: { ignoreIfExists: true } },
            {
              textDocument: { uri: target, version: null },
              edits: [
                {
                  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
                  newText: `# ${name.replace(/\.md$/, '')}\n\n## First phase\nWhat the persona does in this phase.\n`,
                },
              ],
            },
          ],
        },
      });
    }
    if (lines) {
      const indent = /^\s*/.exec(lines.lineText(d.range.start.line))?.[0] ?? '';
      const comment = file.endsWith('.json') ? `${indent}// mmb-ignore: ${code}\n` : `${indent}<!-- mmb-ignore: ${code} -->\n`;
      actions.push(
        fix(ignoreTitle(code), d, [
          {
            range: { start: { line: d.range.start.line, character: 0 }, end: { line: d.range.start.line, character: 0 } },
            newText: comment,
          },
        ]),
      );
    }
  }
  return actions;
}

/** The title of the fix that silences a code on one line: the code and what it means, from the table of codes. */
export function ignoreTitle(code: string): string {
  const row = Object.hasOwn(DIAGNOSTIC_CODES, code) ? DIAGNOSTIC_CODES[code as keyof typeof DIAGNOSTIC_CODES] : undefined;
  const meaning = row ? `: ${shorten(row.summary.replaceAll('`', ''), 80)}` : '';
  return `Ignore ${code} on this line${meaning}`;
}
