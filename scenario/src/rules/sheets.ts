/** A sheet's place in the story: a sheet with live facts that no phase names is never told by the persona. */
import { reporter } from '../diagnostics';
import type { Sheet } from '../model';
import { liveFacts } from '../sheet';
import { lineRange } from '../text';
import type { RuleContext, RuleGroup } from './rule';

const CODES = {
  'sheet-never-told': { severity: 'warning', summary: 'no phase names the sheet, so the persona never tells it' },
} as const;

const report = reporter(CODES);

function sheetTold({ reads, out }: RuleContext, sheet: Sheet): void {
  if (reads.isTold(sheet.name) || liveFacts(sheet).length === 0) return;
  const fix = `add "tell the \`${sheet.name}\` sheet" to a phase, or remove the file.`;
  const message = `No phase names the \`${sheet.name}\` sheet, so the persona never tells it: ${fix}`;
  out.push(report('sheet-never-told', sheet.file, lineRange(0, 0, sheet.lines.lineText(0).length), message));
}

export const SHEET_RULES: RuleGroup<keyof typeof CODES> = { codes: CODES, sheet: sheetTold };
