/** Traps and the checks they aim at: a target no check has, a target asked before the write, a HIST check no trap aims at. */
import { comparePlay, type LocatedTrap } from '../benchmark';
import { reporter } from '../diagnostics';
import type { Chapter } from '../model';
import { didYouMeanText, nearNames } from '../suggest';
import type { RuleContext, RuleGroup } from './rule';

const CODES = {
  'trap-target-missing': { severity: 'error', summary: 'a trap aims at a check id that no check has' },
  'trap-target-before-write': { severity: 'warning', summary: 'a trap aims at a check that is asked before the trap is written' },
  'hist-without-trap': { severity: 'warning', summary: 'a HIST check that no trap aims at' },
} as const;

const report = reporter(CODES);

function trapTargets({ reads, budget, out }: RuleContext, chapter: Chapter, chapterIndex: number): void {
  for (const phase of chapter.phases) {
    for (const trap of phase.traps) {
      const written: LocatedTrap = { trap, file: chapter.file, chapter: chapterIndex, phase: phase.index };
      for (const target of trap.targets) {
        const check = reads.lastCheck(target.name);
        if (!check) {
          const suggestions = nearNames(target.name, reads.checkIds(), 3, budget);
          const fix = `add \`❓ ${target.name} …\` where the value is asked, or fix the id.${didYouMeanText(suggestions)}`;
          const message = `This trap aims at check ${target.name}, but no check has that id: ${fix}`;
          out.push(report('trap-target-missing', chapter.file, target.range, message, { suggestions }));
        } else if (comparePlay(check, written) < 0) {
          const where = `${check.file} line ${check.check.idRange.start.line + 1}`;
          const fix = 'aim the trap at a later check.';
          const message = `Check ${target.name} is asked in ${where}, before this trap is written, so it cannot catch it: ${fix}`;
          const related = [{ file: check.file, range: check.check.idRange, message: `check ${target.name}` }];
          out.push(report('trap-target-before-write', chapter.file, target.range, message, { related }));
        }
      }
    }
  }
}

function histChecks({ reads, out }: RuleContext, chapter: Chapter): void {
  for (const phase of chapter.phases) {
    for (const check of phase.checks) {
      if (check.type !== 'HIST' || reads.isTargeted(check.id)) continue;
      const fix = `mark the edit with \`🪤 TYPE sheet#N.M → ${check.id}\`.`;
      const message = `HIST check ${check.id} asks for a value before an edit, but no trap write aims at it: ${fix}`;
      out.push(report('hist-without-trap', chapter.file, check.typeRange ?? check.idRange, message));
    }
  }
}

export const TRAP_RULES: RuleGroup<keyof typeof CODES> = {
  codes: CODES,
  chapter: (context, chapter, chapterIndex) => {
    trapTargets(context, chapter, chapterIndex);
    histChecks(context, chapter);
  },
};
