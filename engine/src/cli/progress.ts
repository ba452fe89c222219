/**
 * Progress of running benchmarks: on a terminal one line per run, cut to the terminal's width and
 * redrawn in place; plain lines otherwise (CI logs, pipes).
 */
import type { Benchmark } from '../../../scenario/src';
import type { RunEvent, RunState } from '../state/runState';
import { cutToWidth, printable, textWidth } from './textWidth';
import { shorten } from '../../../scenario/src/plainText';
import { waitText } from '../run/agentWait';

interface Line {
  run: string;
  phases: number;
  checks: number;
  state?: RunState;
  note: string;
}

export interface ProgressOptions {
  /** Live lines redrawn in place (a terminal), or plain lines (a log, a pipe). */
  terminal: boolean;
  /** The terminal's columns; 80 when unknown. */
  width?: number;
}

/** Below these widths the bar shrinks, then goes, so that the figures still fit. */
const FULL_BAR_WIDTH = 100;
const SHORT_BAR_WIDTH = 72;

export class Progress {
  private readonly lines = new Map<string, Line>();
  private readonly terminal: boolean;
  private readonly width: number;
  /** Lines of the block last drawn, right above the cursor: what the next redraw moves up over. */
  private drawn = 0;
  private timer: NodeJS.Timeout | undefined;
  private interrupted = false;

  constructor(
    private readonly write: (text: string) => void,
    options: ProgressOptions,
  ) {
    this.terminal = options.terminal;
    // Less than 20 columns cannot hold a useful line: such a terminal gets it cut at 20 (and wrapped).
    this.width = Math.max(20, Math.floor(options.width ?? 80));
  }

  /** A run starts; `state` is the one it resumes, if any (a finished run shows as finished). */
  start(run: string, benchmark: Benchmark, state?: RunState): void {
    // A filtered benchmark keeps its chapters, some with no phase left: those are not counted.
    const phases = benchmark.chapters.reduce((n, c) => n + c.phases.length, 0);
    const line: Line = { run, phases, checks: benchmark.checks.length, note: 'starting', ...(state ? { state } : {}) };
    this.lines.set(run, line);
    if (this.terminal) {
      if (!this.interrupted) this.timer ??= setInterval(() => this.draw(), 100);
      return;
    }
    const name = printable(run);
    if (state?.status === 'finished') {
      const checks = `${Object.keys(state.grades).length}/${line.checks}`;
      this.write(`${name}: finished already (phase ${phaseNumber(line, state)}/${phases}, checks ${checks})\n`);
    } else {
      const chapters = benchmark.chapters.filter((c) => c.phases.length).length;
      const begun = state && state.events > 0 ? 'resumed' : 'started';
      this.write(`${name}: ${begun} (${chapters} chapters, ${phases} phases, ${benchmark.checks.length} checks)\n`);
    }
  }

  event(run: string, state: RunState, event: RunEvent): void {
    const line = this.lines.get(run);
    if (!line) return;
    line.state = state;
    if (event.type === 'phase') line.note = `${event.position.chapter} · phase ${event.position.phase + 1}`;
    if (event.type === 'retry') line.note = `${event.by === 'agent' ? 'agent: ' : ''}${retryText(event)}`;
    if (this.terminal) return;
    const name = printable(run);
    if (event.type === 'phase') this.write(`${name}: ${printable(event.position.chapter)}, phase ${event.position.phase + 1}\n`);
    if (event.type === 'tool-done') {
      for (const e of event.effects)
        if (e.kind === 'grade') this.write(`${name}: check ${printable(e.checkId)} graded ${e.grade.effective}/10\n`);
    }
    if (event.type === 'retry')
      this.write(`${name}: ${event.by === 'agent' ? "the agent's " : ''}model ${oneLine(event.model)} ${retryText(event)}\n`);
    if (event.type === 'waiting') this.write(`${name}: ${waitText(event.waitedMs, event.timeoutMs)}\n`);
    if (event.type === 'finish') this.write(`${name}: ${event.status}${event.error ? `: ${oneLine(event.error)}` : ''}\n`);
  }

  /**
   * A stop was asked for (Ctrl-C), and a notice is printed below the block: the block stays as
   * drawn, no redraw moves over the notice, and `stop` draws the final state once below it.
   */
  interrupt(): void {
    this.interrupted = true;
    this.stopTimer();
    this.drawn = 0;
  }

  stop(): void {
    this.stopTimer();
    if (this.terminal) this.draw();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Moves up over the block last drawn, then clears and writes each line: no line is wider than the terminal, so none wraps. */
  private draw(): void {
    const rows = [...this.lines.values()].map((line) => this.row(line));
    if (rows.length === 0) return;
    const up = this.drawn ? `\x1b[${this.drawn}A` : '';
    this.write(`\r${up}${rows.map((row) => `\x1b[2K${row}\n`).join('')}`);
    this.drawn = rows.length;
  }

  private row(line: Line): string {
    const state = line.state;
    const graded = state ? Object.keys(state.grades).length : 0;
    const done = state ? phaseNumber(line, state) : 0;
    const tokens = state ? Object.values(state.usage).reduce((n, u) => n + u.promptTokens + u.completionTokens, 0) : 0;
    const status = state?.status === 'finished' ? 'finished' : state?.status === 'crashed' ? 'crashed' : printable(noteOf(line));
    // Names are aligned in a column as wide as the longest, up to 24 columns and a third of the width.
    const nameColumns = Math.min(24, Math.max(8, Math.floor(this.width / 3)));
    const column = Math.min(nameColumns, Math.max(...[...this.lines.keys()].map((run) => textWidth(printable(run)))));
    const name = cutToWidth(printable(line.run), nameColumns);
    const padded = `${name}${' '.repeat(Math.max(0, column - textWidth(name)))}`;
    const barWidth = this.width >= FULL_BAR_WIDTH ? 24 : this.width >= SHORT_BAR_WIDTH ? 10 : 0;
    const filled = Math.round((barWidth * done) / Math.max(1, line.phases));
    const bar = barWidth ? ` ${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}` : '';
    // A narrow terminal has no room for the tokens: the status is worth more.
    const gap = barWidth ? '  ' : ' ';
    const used = barWidth ? `${gap}${formatTokens(tokens)} tok` : '';
    return cutToWidth(
      `${padded}${bar} phase ${done}/${line.phases}${gap}checks ${graded}/${line.checks}${used}${gap}${status}`,
      this.width,
    );
  }
}

/** What the run does now: the wait on the agent as it lasts (counted on between its events), or the last note. */
function noteOf(line: Line): string {
  const wait = line.state?.agentWait;
  if (!wait) return line.note;
  const waited = wait.waitedMs + Math.max(0, Date.now() - Date.parse(wait.at));
  return waitText(Math.min(waited, wait.timeoutMs), wait.timeoutMs);
}

/** The phase a run is in, 1-based; all of them once it finished. */
function phaseNumber(line: Line, state: RunState): number {
  if (state.status === 'finished') return line.phases;
  return state.transcript.length === 0 ? 0 : Math.min(line.phases, countPhases(state));
}

/** Phases entered so far: the first, plus each `next_phase` that moved on. */
function countPhases(state: RunState): number {
  return 1 + state.persona.filter((m) => m.role === 'tool' && m.content.startsWith('[Phase ')).length;
}

function formatTokens(tokens: number): string {
  return tokens >= 1_000_000 ? `${(tokens / 1_000_000).toFixed(1)}M` : tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
}

/** `retrying (2/7) in 4 s: 503 from http://…`: which retry, how long until it, and why. */
export function retryText(event: Extract<RunEvent, { type: 'retry' }>): string {
  const count = event.retry !== undefined && event.retries !== undefined ? ` (${event.retry}/${event.retries})` : '';
  const wait = event.delayMs !== undefined ? ` in ${formatDelay(event.delayMs)}` : '';
  return `retrying${count}${wait}: ${oneLine(event.error)}`;
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** A model's or an agent's error as one bounded line, so that it cannot pass for lines of the CLI's own. */
function oneLine(text: string): string {
  const flat = printable(text).replace(/\s+/g, ' ').trim();
  return shorten(flat, 500);
}
