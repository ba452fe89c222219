/**
 * The run loop: the persona's model speaks through tools; the engine carries out each call,
 * talks to the agent through its adapter, and journals every step, so that a run killed at any
 * moment resumes where it stopped without losing or repeating anything.
 */
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startMoment, type Benchmark } from '../../../scenario/src';
import type { AgentAdapter } from '../adapters/types';
import type { Clock } from '../clock';
import { formatWallClock, wallClock } from '../clock';
import { lastAnchor, sleepUntil, type TimeMasterSettings } from './timeMaster';
import type { ChatModel } from '../models/chat';
import { buildSystemPrompt } from '../persona/prompt';
import { NO_REPLY_PREFIX, phaseMessage, REPLY_PREFIX, SCENARIO_COMPLETE } from '../persona/protocol';
import { compactionNote, planCompaction } from '../persona/compaction';
import { runJsBlock } from '../persona/sandbox';
import {
  factsAdd, factsEdit, factsGetUntold, factsMarkTold, factsRead, fail, logEvaluation, parseArgs, TOOL_SPECS, type ToolOutcome,
} from '../persona/tools';
import { agentTurn } from './agentTurn';
import { checkPositions, expandTemplates, indexOf, phaseText, playOrder, type PlayPhase } from './phases';
import { emptyState, type Effect, type LiveSheet, type RunEvent, type RunState } from '../state/runState';
import { type ToolCall } from '../models/messages';
import type { RunStore } from './store';

export interface RunOptions {
  name: string;
  benchmark: Benchmark;
  agent: string;
  persona: ChatModel;
  adapter: AgentAdapter;
  store: RunStore;
  clock: Clock;
  ignoreSessionBreak?: boolean;
  /** The persona's context compaction (config.jsonc `compaction`); none when absent. */
  compaction?: { maxTokens: number; trimToTokens: number };
  /** The model hooks (config.jsonc `hooks`); both on when absent. */
  hooks?: { requireSendMessage: boolean; dropEchoedUserMessages: boolean };
  /** How sleeps are fast-forwarded (config.jsonc `time_master`); on only for a `time_master` benchmark. */
  timeMaster?: Omit<TimeMasterSettings, 'enabled'>;
  /** Per agent turn; past it the turn counts as unanswered and the run goes on. */
  replyTimeoutMs?: number;
  /** Persona turns allowed in one phase before the run is stopped as stuck (default: by the phase's size). */
  maxTurnsPerPhase?: number;
  onEvent?: (state: RunState, event: RunEvent) => void;
  /**
   * Where to copy the agent's memory folder (see `AgentAdapter.memoryDir`) before each session
   * switch and at the end, as `<n>/`, so a wrong answer can be traced to the note behind it.
   */
  snapshotDir?: string;
  /** Aborting stops the run between two steps; it stays resumable. */
  signal?: AbortSignal;
  /**
   * A fresh run of some phases only, by index in the play order (both included): the persona
   * starts at `from` and the run ends after `to`. A resumed run keeps the range it started with.
   */
  phases?: { from: number; to?: number };
}

/** Thrown when a run is stopped on request (Ctrl-C): the run is not finished, only paused. */
export class RunStopped extends Error {}

export async function runBenchmark(o: RunOptions): Promise<RunState> {
  const order = playOrder(o.benchmark);
  if (order.length === 0) throw new Error(`${o.benchmark.name} has no phases: its chapters need \`##\` phase headings.`);
  const checks = checkPositions(order);
  const systemPrompt = buildSystemPrompt(o.benchmark.instructions ?? '', o.benchmark.profile);
  // Events carry real time (how long the run worked); the scenario lives on the virtual clock.
  const now = () => new Date().toISOString();
  const manifest = o.benchmark.manifest;
  const time: TimeMasterSettings = { enabled: !!manifest?.time_master, minSleepToSkipMs: 5000, preWakeDelayMs: 1000, pollIntervalMs: 1000, ...o.timeMaster };
  const jump = async (to: Date, skippedMs: number) => {
    record({ type: 'clock', at: now(), virtualTime: to.toISOString(), skippedMs });
    await o.adapter.setVirtualTime?.(to.toISOString());
  };
  let state = o.store.load();
  /** A finished run whose benchmark has grown: it goes on with the new phases. */
  let continuing = false;
  const record = (event: RunEvent) => {
    o.store.append(state!, event);
    o.onEvent?.(state!, event);
  };

  if (!state) {
    state = emptyState();
    await o.adapter.destroySession();
    await o.adapter.createSession(o.name);
    const startTime = manifest?.start_time ?? formatWallClock(wallClock(new Date()));
    o.clock.set(startMoment(startTime));
    const from = o.phases?.from ?? 0;
    const to = o.phases?.to;
    if (!order[from] || (to !== undefined && (to < from || !order[to]))) throw new Error(`${o.benchmark.name} has no phases ${from + 1}–${(to ?? from) + 1} (it has ${order.length}).`);
    record({
      type: 'start', at: now(), run: o.name, benchmark: o.benchmark.name, agent: o.agent, startTime,
      position: order[from]!.position, sheets: liveSheets(o.benchmark), templates: expandTemplates(order, startTime),
      ...(o.phases ? { phases: { from: order[from]!.position, to: order[to ?? order.length - 1]!.position } } : {}),
    });
    if (time.enabled) await jump(o.clock.now(), 0);
  } else {
    const at = indexOf(order, state.position);
    if (at < 0) {
      throw new Error(`the run stopped in ${state.position.chapter}, phase ${state.position.phase + 1}, which ${o.benchmark.name} no longer has; restore it, or delete the run's folder to restart.`);
    }
    if (state.status === 'finished' && (at === order.length - 1 || state.phases)) return state;
    continuing = state.status === 'finished';
    await o.adapter.createSession(o.name);
    // A multi-day run goes on from its virtual moment; any other lives on the real wall clock.
    o.clock.set(time.enabled && state.virtualTime ? new Date(state.virtualTime) : wallClock(new Date()));
    record({ type: 'resume', at: now() });
    if (time.enabled) await o.adapter.setVirtualTime?.(o.clock.now().toISOString());
  }
  const s = state;
  /** The index after the run's last phase. */
  const end = s.phases ? indexOf(order, s.phases.to) + 1 || order.length : order.length;

  /**
   * Enters a phase: journals the move with the effects of its JS block, once per `entry` (the
   * `next_phase` call, or `start`), and returns the phase's text for the persona.
   */
  const enterPhase = async (index: number, entry: string): Promise<string> => {
    const target = order[index]!;
    if (s.phaseCallId !== entry) {
      const effects = await runPhaseJs(target);
      record({ type: 'phase', at: now(), callId: entry, position: target.position, templates: expandTemplates([target], s.startTime, s.templates), effects });
    }
    return phaseMessage(target.position, target.chapter.phases.length, target.phase.title, phaseText(target, s.templates));
  };

  const runPhaseJs = async (target: PlayPhase): Promise<Effect[]> => {
    const js = target.phase.js;
    if (!js) return [];
    const result = await runJsBlock(js.code, s.vars, target.chapter.file, js.range.start.line + 2);
    const effects: Effect[] = [{ kind: 'vars', vars: result.vars }, ...result.logs.map((text): Effect => ({ kind: 'log', text }))];
    if (result.newSession) {
      const ignored = !!o.ignoreSessionBreak;
      if (!ignored) {
        // After the switch: an agent that consolidates its notes when a conversation ends has done so.
        await o.adapter.startNewConversation?.();
        snapshotMemory();
      }
      effects.push({ kind: 'session-switch', ignored });
    }
    return effects;
  };

  const finish = () => {
    snapshotMemory();
    record({ type: 'finish', at: now(), status: 'finished' });
  };
  const snapshotMemory = () => {
    const from = o.adapter.memoryDir?.();
    if (!o.snapshotDir || !from || !existsSync(from)) return;
    const n = existsSync(o.snapshotDir) ? readdirSync(o.snapshotDir).length + 1 : 1;
    cpSync(from, join(o.snapshotDir, String(n)), { recursive: true });
  };
  const hooks = o.hooks ?? { requireSendMessage: true, dropEchoedUserMessages: true };
  const replyTimeout = o.replyTimeoutMs ?? 300_000;
  const replyText = (replies: string[]) => (replies.length ? `${REPLY_PREFIX}${replies.join('\n\n')}`
    : `${NO_REPLY_PREFIX} within ${replyTimeout < 1000 ? `${replyTimeout} ms` : `${Math.round(replyTimeout / 1000)} s`}.)`);

  /** With `require_send_message` off, plain text goes to the agent, and its reply comes back as a user message. */
  const plainTextTurn = async (text: string, index: number) => {
    const replies = await agentTurn(s, o.adapter, `text-${index}`, text.trim(), { replyTimeoutMs: replyTimeout, record, now });
    record({ type: 'persona', at: now(), message: { role: 'user', content: replyText(replies) } });
  };

  try {
    if (s.persona.length === 0) {
      record({ type: 'persona', at: now(), message: { role: 'user', content: await enterPhase(Math.max(0, indexOf(order, s.position)), 'start') } });
    } else if (continuing) {
      const next = indexOf(order, s.position) + 1;
      record({ type: 'persona', at: now(), message: { role: 'user', content: `[The scenario continues.]\n\n${await enterPhase(next, `continue-${s.events}`)}` } });
    }
    let turnsInPhase = 0;
    let drops = 0;
    let phaseAt = indexOf(order, s.position);
    for (;;) {
      if (o.signal?.aborted) throw new RunStopped('stopped on request');
      if (s.status === 'finished') break;
      const pending = pendingCalls(s);
      if (pending.length > 0) {
        for (const call of pending) {
          if (o.signal?.aborted) throw new RunStopped('stopped on request');
          const outcome = await execute(call);
          if (outcome === 'complete') {
            finish();
            break;
          }
        }
        continue;
      }
      const at = indexOf(order, s.position);
      if (at !== phaseAt) {
        phaseAt = at;
        turnsInPhase = 0;
      }
      if (++turnsInPhase > (o.maxTurnsPerPhase ?? turnLimit(order[at]!, s))) {
        throw new Error(`the persona took ${turnsInPhase - 1} turns in ${s.position.chapter}, phase ${s.position.phase + 1}, without finishing it; check the phase's instructions.`);
      }
      const last = s.persona.at(-1);
      if (!hooks.requireSendMessage && last?.role === 'assistant' && !last.tool_calls?.length && last.content?.trim()) {
        await plainTextTurn(last.content, s.persona.length - 1);
        continue;
      }
      if (o.compaction) {
        const note = compactionNote(o.benchmark.profile, Object.values(s.sheets).filter((x) => x.facts.some((f) => f.told)).map((x) => x.name));
        const plan = planCompaction(systemPrompt, s.persona, o.compaction.maxTokens, o.compaction.trimToTokens, note);
        if (plan) record({ type: 'compaction', at: now(), note, ...plan });
      }
      const response = await o.persona.complete({ messages: [{ role: 'system', content: systemPrompt }, ...s.persona], tools: TOOL_SPECS }, {
        onRetry: (error) => record({ type: 'retry', at: now(), model: o.persona.name, error }),
      });
      record({ type: 'usage', at: now(), model: o.persona.name, promptTokens: response.usage.promptTokens, completionTokens: response.usage.completionTokens });
      const calls = response.message.tool_calls ?? [];
      const echo = hooks.dropEchoedUserMessages ? echoedAgent(response.message.content, calls, s) : undefined;
      if (echo !== undefined && drops < 5) {
        drops++;
        record({ type: 'hook', at: now(), hook: 'drop_echoed_user_messages', text: echo });
        continue;
      }
      drops = 0;
      record({ type: 'persona', at: now(), message: { role: 'assistant', content: response.message.content, ...(calls.length ? { tool_calls: calls } : {}) } });
      if (calls.length === 0 && hooks.requireSendMessage) {
        record({ type: 'hook', at: now(), hook: 'require_send_message', text: response.message.content ?? '' });
        record({ type: 'persona', at: now(), message: { role: 'user', content: 'Error: plain text reaches no one. Talk to the assistant with `send_message`, and call `next_phase` when the phase is done.' } });
      } else if (calls.length === 0 && response.message.content?.trim()) {
        await plainTextTurn(response.message.content, s.persona.length - 1);
      }
    }
  } catch (e) {
    if (e instanceof RunStopped) throw e;
    record({ type: 'finish', at: now(), status: 'crashed', error: e instanceof Error ? e.message : String(e) });
  } finally {
    o.store.flush(s);
  }
  return s;

  async function execute(call: ToolCall): Promise<'complete' | void> {
    const parsed = parseArgs(call.function.name, call.function.arguments);
    const done = (outcome: ToolOutcome) => record({ type: 'tool-done', at: now(), callId: call.id, name: call.function.name, content: outcome.content, effects: outcome.effects });
    if (!parsed.ok) return done(parsed.outcome);
    const a = parsed.args;
    switch (call.function.name) {
      case 'send_message': {
        const text = typeof a.text === 'string' ? a.text.trim() : '';
        if (!text) return done(fail('`text` must be the message for the assistant.'));
        const replies = await agentTurn(s, o.adapter, call.id, text, { replyTimeoutMs: replyTimeout, record, now });
        return done({ content: replyText(replies), effects: [] });
      }
      case 'next_phase': {
        const index = indexOf(order, s.position);
        if (s.phaseCallId === call.id) return done({ content: await enterPhase(index, call.id), effects: [] });
        const blocked = untoldRequired(s);
        if (blocked) return done(fail(blocked));
        const deadline = manifest?.time_gate ? lastAnchor(order[index]!.phase) : undefined;
        if (deadline && o.clock.now() < deadline.at) {
          return done(fail(`it is ${formatWallClock(o.clock.now())}, and this phase's last action is at ${deadline.label}. Wait until then (\`wait\`), do it, then call next_phase.`));
        }
        if (index + 1 < end) return done({ content: await enterPhase(index + 1, call.id), effects: [] });
        done({ content: SCENARIO_COMPLETE, effects: [] });
        return 'complete';
      }
      case 'facts_read': return done(factsRead(s, a));
      case 'facts_get_untold': return done(factsGetUntold(s, a));
      case 'facts_mark_told': return done(factsMarkTold(s, a));
      case 'facts_edit': return done(factsEdit(s, a));
      case 'facts_add': return done(factsAdd(s, a));
      case 'log_evaluation': return done(logEvaluation(s, a, (id) => checks.get(id), now()));
      case 'wait': return done(await waitUntil(a.until));
      default: return done(fail(`there is no tool \`${call.function.name}\`.`));
    }
  }

  async function waitUntil(until: unknown): Promise<ToolOutcome> {
    const target = parseUntil(String(until ?? ''), o.clock.now());
    if (!target) return fail('`until` must be a time, "HH:MM", or a moment, "YYYY-MM-DD HH:MM".');
    if (target.getTime() - o.clock.now().getTime() > 36 * 3600_000) return fail('you can wait at most 36 hours at once.');
    await sleepUntil(target, o.clock, o.adapter, time, jump, o.signal);
    return { content: `It is now ${formatWallClock(o.clock.now())}.`, effects: [] };
  }
}

const IMITATION = /^\s*(the assistant replied|assistant\s*:|agent\s*:|🤖)/i;

/**
 * The text of a persona turn that imitates the agent (a reply it made up itself), or undefined.
 * Such a turn is dropped whole: the seed's DeepSeek hook.
 */
function echoedAgent(content: string | null, calls: readonly ToolCall[], s: RunState): string | undefined {
  const texts = [content ?? '', ...calls.filter((c) => c.function.name === 'send_message').map((c) => {
    try {
      return String((JSON.parse(c.function.arguments) as { text?: unknown }).text ?? '');
    } catch {
      return '';
    }
  })];
  const lastReply = [...s.transcript].reverse().find((e) => e.from === 'agent')?.text;
  const norm = (t: string) => t.toLowerCase().replace(/\W+/g, ' ').trim();
  return texts.find((t) => t.trim() && (IMITATION.test(t) || (lastReply !== undefined && norm(t) === norm(lastReply) && norm(t).length > 12)));
}

/** A generous bound on a phase's persona turns: some for talk, more per check and per fact to tell. */
function turnLimit(p: PlayPhase, s: RunState): number {
  const facts = p.phase.sheetRefs.reduce((n, r) => n + (s.sheets[r.sheet]?.facts.length ?? 0), 0);
  return 60 + 5 * p.phase.checks.length + 2 * facts;
}

/** Tool calls of the persona's last message that have no result yet. */
export function pendingCalls(s: RunState): ToolCall[] {
  for (let i = s.persona.length - 1; i >= 0; i--) {
    const m = s.persona[i];
    if (m?.role !== 'assistant') continue;
    const answered = new Set(s.persona.slice(i + 1).flatMap((x) => (x.role === 'tool' ? [x.tool_call_id] : [])));
    return (m.tool_calls ?? []).filter((c) => !answered.has(c.id));
  }
  return [];
}

/** Why `next_phase` must wait, naming the untold facts of the sheets `vars.require_all_facts` names. */
function untoldRequired(s: RunState): string | undefined {
  const required = s.vars.require_all_facts;
  const names = typeof required === 'string' ? [required] : Array.isArray(required) ? required.map(String) : [];
  const parts: string[] = [];
  for (const name of names) {
    const sheet = s.sheets[name];
    const untold = sheet?.facts.filter((f) => !f.told) ?? [];
    if (untold.length) parts.push(`untold facts of \`${name}\`: ${untold.map((f) => f.id).join(', ')}`);
  }
  return parts.length ? `you cannot move on yet: ${parts.join('; ')}. Tell them, mark them with facts_mark_told, then call next_phase again.` : undefined;
}

function liveSheets(b: Benchmark): Record<string, LiveSheet> {
  const out: Record<string, LiveSheet> = {};
  for (const sheet of b.sheets.values()) {
    const live = new Map<string, { id: string; category: number; text: string; told: boolean }>();
    for (const f of sheet.facts) {
      if (f.deleted) live.delete(f.id);
      else live.set(f.id, { id: f.id, category: f.category, text: f.text, told: false });
    }
    const entry: LiveSheet = { name: sheet.name, categories: sheet.categories.map((c) => ({ number: c.number, title: c.title })), facts: [...live.values()] };
    if (sheet.title) entry.title = sheet.title;
    out[sheet.name] = entry;
  }
  return out;
}

function parseUntil(text: string, now: Date): Date | undefined {
  const full = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})$/.exec(text.trim());
  if (full) return new Date(`${full[1]}T${full[2]}:${full[3]}:00Z`);
  const time = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!time) return undefined;
  const d = new Date(now.getTime());
  d.setUTCHours(Number(time[1]), Number(time[2]), 0, 0);
  if (d.getTime() <= now.getTime()) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}
