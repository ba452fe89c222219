/**
 * `mmb judge audit`'s progress on stderr, the way `mmb run` shows a run's: on a terminal one counter
 * line redrawn in place (answered, no grades, tokens); in a log or a pipe one plain line per answer.
 */
import type { AuditEntry } from '../judge/auditJournal';
import { cutToWidth, printable } from './textWidth';

/** A terminal's counter is redrawn at most this often. */
const REDRAW_MS = 100;
const BAR_COLUMNS = 24;

export class AuditProgress {
  private noGrades = 0;
  private tokens = 0;
  private lastDraw = 0;
  private drawnLine = '';

  constructor(
    private readonly write: (text: string) => void,
    private readonly options: { terminal: boolean; width?: number; judge: string },
  ) {}

  /** Before the first ask: what is to do, and what the journal already holds. */
  start(total: number, journaled: number, id: string): void {
    const resumed = journaled ? `resumed, ${journaled} answered before` : 'started';
    this.write(`judge ${printable(this.options.judge)}: audit ${id} ${resumed}, ${total} asks\n`);
  }

  answered(entry: AuditEntry, answered: number, total: number): void {
    if (entry.outcome === 'no-grade') this.noGrades++;
    this.tokens += entry.promptTokens + entry.completionTokens;
    if (!this.options.terminal) {
      const what = entry.outcome === 'graded' ? `graded ${entry.score}/10` : `no grade: ${printable(entry.reason ?? '')}`;
      this.write(`judge ${printable(this.options.judge)}: ${printable(entry.ask)} ${what} (${answered}/${total})\n`);
      return;
    }
    const now = Date.now();
    if (answered < total && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const filled = Math.round((BAR_COLUMNS * answered) / Math.max(1, total));
    const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_COLUMNS - filled)}`;
    const counts = `${answered}/${total} answered, ${this.noGrades} no grade, ${this.tokens} tok`;
    const line = `judge ${printable(this.options.judge)} ${bar} ${counts}`;
    this.drawnLine = cutToWidth(line, Math.max(20, (this.options.width ?? 80) - 1));
    this.write(`\r\x1b[2K${this.drawnLine}`);
  }

  /** After the last answer: the counter's line ends, so what follows starts a line of its own. */
  stop(): void {
    if (this.options.terminal && this.drawnLine) this.write('\n');
    this.drawnLine = '';
  }
}
