/**
 * A module agent (`"agent": "./agents/my-agent.mjs"`): a JavaScript or TypeScript file of the
 * user's workspace whose default export (or `createAgent`) makes an `AgentAdapter`. It is the
 * user's own code, run in the engine's process with the user's rights, unlike a benchmark: the
 * path is confined to the workspace so that a config copied from elsewhere cannot reach out of it,
 * and what it answers is checked like any agent's. Its types for authors: `agent.d.ts`.
 */
import { realpathSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isModuleAgent } from '../../../scenario/src';
import { ConfigError } from '../errors';
import { reportedUsage } from '../models/usage';
import { MAX_MESSAGES, parseCompactions, parseMessages, parseStatus } from './processProtocol';
import { syntaxErrorPlace } from './moduleSyntaxError';
import type { AgentAdapter, AgentMessage, AgentStatus, SendOptions } from '../protocol/agent';

/** What a module's factory is given. */
export interface AgentModuleContext {
  /** The agent's own folder for its state (`results/<run>/agent/`). */
  home: string;
  /** The workspace: the folder of config.jsonc. */
  workspace: string;
  /** The run key `module_options`, as written. */
  options: Record<string, unknown>;
  /** The model the run names in `agent_model`, as an OpenAI-compatible endpoint. */
  model: { baseUrl: string; model: string; apiKey: string } | undefined;
  /** The run's clock: virtual time when the Time Master jumps. */
  now(): Date;
}

export type AgentFactory = (context: AgentModuleContext) => AgentAdapter | Promise<AgentAdapter>;

/** The module's file, inside the workspace once every link is followed, or a ConfigError. */
export function modulePath(agent: string, workspace: string): string {
  if (!isModuleAgent(agent))
    throw new ConfigError(
      `the module agent "${agent.slice(0, 80)}" must be a path under the workspace such as "./agents/my-agent.mjs" ` +
        '(.mjs, .js, .cjs, .mts or .ts; no "..").',
    );
  const root = realpathSync(workspace);
  let file: string;
  try {
    file = realpathSync(resolve(workspace, agent));
  } catch {
    throw new ConfigError(`the module agent ${agent} does not exist in ${workspace}: \`mmb new agent <name> --kind module\` writes one.`);
  }
  const inside = relative(root, file);
  if (inside.startsWith(`..${sep}`) || inside === '..' || resolve(root, inside) !== file)
    throw new ConfigError(`the module agent ${agent} leads outside the workspace (a link): modules are loaded from the workspace only.`);
  if (!statSync(file).isFile()) throw new ConfigError(`the module agent ${agent} is not a file.`);
  return file;
}

/** The adapter a module makes, loaded at its first call; its answers are checked as a program's are. */
export class ModuleAdapter implements AgentAdapter {
  private loaded: Promise<AgentAdapter> | undefined;
  private inner: AgentAdapter | undefined;

  constructor(
    private readonly file: string,
    private readonly context: AgentModuleContext,
  ) {}

  get quietPeriodMs(): number {
    return bounded(this.inner?.quietPeriodMs, 500);
  }

  get pollIntervalMs(): number {
    return bounded(this.inner?.pollIntervalMs, 50);
  }

  async createSession(name: string): Promise<void> {
    await (await this.agent()).createSession(name);
  }

  async sendMessage(text: string, options: SendOptions): Promise<void> {
    await (await this.agent()).sendMessage(text, options);
  }

  async getResponses(afterSeq: number): Promise<AgentMessage[]> {
    const messages: unknown = await (await this.agent()).getResponses(afterSeq);
    // A module's messages are AgentMessage objects: their `toolCalls` are checked as a program's `tool_calls`.
    const asProtocol = Array.isArray(messages)
      ? messages
          .slice(0, MAX_MESSAGES)
          .map((m: unknown) =>
            typeof m === 'object' && m !== null && 'toolCalls' in m ? { ...m, tool_calls: (m as AgentMessage).toolCalls } : m,
          )
      : messages;
    return parseMessages({ messages: asProtocol }, afterSeq);
  }

  /** The module's own `whenSettled`, when it has one: the engine then awaits its turn instead of polling. */
  get whenSettled(): (() => Promise<void>) | undefined {
    const inner = this.inner;
    const settled = inner?.whenSettled;
    return settled
      ? async () => {
          await settled.call(inner);
        }
      : undefined;
  }

  async destroySession(): Promise<void> {
    await (await this.agent()).destroySession();
  }

  async startNewConversation(): Promise<void> {
    await (await this.agent()).startNewConversation?.();
  }

  async setVirtualTime(iso: string): Promise<void> {
    await (await this.agent()).setVirtualTime?.(iso);
  }

  async getStatus(): Promise<AgentStatus> {
    const agent = await this.agent();
    if (!agent.getStatus) return { state: 'unknown', compactions: null, contextTokens: null };
    const status = await agent.getStatus();
    const usage = reportedUsage(status.usage);
    return {
      ...parseStatus({ state: status.state, context_tokens: status.contextTokens }),
      // The module's own objects: bounded and checked as the process protocol's JSON is.
      compactions: parseCompactions(status.compactions, { before: 'tokensBefore', after: 'tokensAfter' }),
      ...(usage ? { usage } : {}),
    };
  }

  memoryDir(): string | undefined {
    return this.inner?.memoryDir?.();
  }

  async close(): Promise<void> {
    await this.inner?.close?.();
  }

  private agent(): Promise<AgentAdapter> {
    this.loaded ??= this.load();
    return this.loaded;
  }

  private async load(): Promise<AgentAdapter> {
    let exports: { default?: unknown; createAgent?: unknown };
    try {
      exports = (await import(pathToFileURL(this.file).href)) as typeof exports;
    } catch (e) {
      const typescript = /\.m?ts$/.test(this.file)
        ? ' (a .ts module needs Node 22.18 or later, which strips types; or compile it to .mjs)'
        : '';
      // A syntax error names its place, `file:line:col`, as an editor or a terminal opens it; Node's own says none.
      const place = syntaxErrorPlace(this.file, e);
      const where = place ? `${this.file}:${place.line}:${place.column}` : this.file;
      const reason = e instanceof Error ? `${e instanceof SyntaxError ? 'SyntaxError: ' : ''}${e.message.slice(0, 300)}` : String(e);
      throw new ConfigError(`the module agent ${where} could not be loaded${typescript}: ${reason}`);
    }
    const factory = typeof exports.createAgent === 'function' ? exports.createAgent : exports.default;
    if (typeof factory !== 'function')
      throw new ConfigError(
        `the module agent ${this.file} exports no function: export default (context) => ({ createSession, sendMessage, ` +
          `getResponses, destroySession, quietPeriodMs, pollIntervalMs }).`,
      );
    const agent = (await (factory as AgentFactory)(this.context)) as Partial<AgentAdapter> | undefined;
    const missing = (['createSession', 'sendMessage', 'getResponses', 'destroySession'] as const).filter(
      (name) => typeof agent?.[name] !== 'function',
    );
    if (!agent || missing.length)
      throw new ConfigError(`the module agent ${this.file} made an adapter without ${missing.join(', ') || 'anything'}: see agent.d.ts.`);
    this.inner = agent as AgentAdapter;
    return this.inner;
  }
}

function bounded(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 && value <= 60_000 ? value : fallback;
}
