/**
 * Progress of running benchmarks: live bars on a terminal, plain lines otherwise (CI logs, pipes).
 */
import type { Benchmark } from '../../../scenario/src';
import type { RunEvent, RunState } from '../state/runState';

interface Line {
  run: string;
  phases: number;
  checks: number;
  state?: RunState;
  note: string;
}

export class Progress {
  private readonly lines = new Map<string, Line>();
  private drawn = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly write: (s: string) => void, private readonly tty: boolean, private readonly width = 100) {}

  start(run: string, benchmark: Benchmark): void {
    const phases = benchmark.chapters.reduce((n, c) => n + c.phases.length, 0);
    this.lines.set(run, { run, phases, checks: benchmark.checks.length, note: 'starting' });
    if (this.tty) this.timer ??= setInterval(() => this.draw(), 100);
    else this.write(`${run}: started (${benchmark.chapters.length} chapters, ${phases} phases, ${benchmark.checks.length} checks)\n`);
  }

  event(run: string, state: RunState, event: RunEvent): void {
    const line = this.lines.get(run);
    if (!line) return;
    line.state = state;
    if (event.type === 'phase') line.note = `${event.position.chapter} · phase ${event.position.phase + 1}`;
    if (event.type === 'retry') line.note = `${event.by === 'agent' ? 'agent: ' : ''}${retryText(event)}`;
    if (this.tty) return;
    if (event.type === 'phase') this.write(`${run}: ${event.position.chapter}, phase ${event.position.phase + 1}\n`);
    if (event.type === 'tool-done') {
      for (const e of event.effects) if (e.kind === 'grade') this.write(`${run}: check ${e.checkId} graded ${e.grade.effective}/10\n`);
    }
    if (event.type === 'retry') this.write(`${run}: ${event.by === 'agent' ? "the agent's " : ''}model ${oneLine(event.model)} ${retryText(event)}\n`);
    if (event.type === 'finish') this.write(`${run}: ${event.status}${event.error ? `: ${oneLine(event.error)}` : ''}\n`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.tty) this.draw();
  }

  private draw(): void {
    const rows = [...this.lines.values()].map((l) => this.row(l));
    if (this.drawn) this.write(`\x1b[${this.drawn}A`);
    this.write(rows.map((r) => `\x1b[2K${r}\n`).join(''));
    this.drawn = rows.length;
  }

  private row(l: Line): string {
    const s = l.state;
    const graded = s ? Object.keys(s.grades).length : 0;
    const done = s ? this.phaseNumber(s) : 0;
    const tokens = s ? Object.values(s.usage).reduce((n, u) => n + u.promptTokens + u.completionTokens, 0) : 0;
    const barWidth = 24;
    const filled = Math.round((barWidth * done) / Math.max(1, l.phases));
    const bar = `${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}`;
    const status = s?.status === 'finished' ? 'done' : s?.status === 'crashed' ? 'crashed' : l.note;
    const text = `${l.run.padEnd(18)} ${bar} phase ${done}/${l.phases}  checks ${graded}/${l.checks}  ${formatTokens(tokens)} tok  ${status}`;
    return text.length > this.width ? `${text.slice(0, this.width - 1)}…` : text;
  }

  private phaseNumber(s: RunState): number {
    const line = this.lines.get(s.run);
    if (s.status === 'finished') return line?.phases ?? 0;
    return s.transcript.length === 0 ? 0 : Math.min(line?.phases ?? 0, countPhases(s));
  }
}

/** Phases entered so far: the first, plus each `next_phase` that moved on. */
function countPhases(s: RunState): number {
  return 1 + s.persona.filter((m) => m.role === 'tool' && m.content.startsWith('[Phase ')).length;
}

function formatTokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
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
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 500 ? `${flat.slice(0, 499)}…` : flat;
}
