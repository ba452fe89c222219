/**
 * Runs a phase's JS block in a `node:vm` context that holds only `vars` and `bench`, stopped after
 * one second. Everything the block can reach is made inside the context (no object of the host
 * leaks in, so no `constructor` chain leads out), and `bench.newSession()` is only recorded: the
 * engine carries it out after the block, so the time limit covers the block's own work alone.
 */
import { Script, createContext } from 'node:vm';

export interface SandboxResult {
  vars: Record<string, unknown>;
  logs: string[];
  newSession: boolean;
}

export class JsBlockError extends Error {}

export const JS_TIME_LIMIT_MS = 1000;

const PRELUDE = new Script(`(() => {
  const host = globalThis.__host;
  delete globalThis.__host;
  globalThis.vars = JSON.parse(host.vars);
  globalThis.bench = Object.freeze({
    newSession: () => { host.newSession(); return Promise.resolve(); },
    log: (text) => { host.log(String(text)); },
  });
  Object.defineProperty(globalThis, '__settled', { value: {}, enumerable: false });
})();`);
const RESULT = new Script('JSON.stringify({ vars: globalThis.vars, done: __settled.done === true })');

/** `line` is the 1-based document line of the code's first line, for error messages. */
export function runJsBlock(code: string, vars: Record<string, unknown>, file: string, line: number): SandboxResult {
  const result: SandboxResult = { vars: {}, logs: [], newSession: false };
  const host = {
    vars: JSON.stringify(vars),
    newSession: () => { result.newSession = true; },
    log: (text: string) => { result.logs.push(text); },
  };
  // Microtasks drain before runInContext returns, so the block's promise settles inside the time limit.
  const context = createContext({ __host: host }, { codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' });
  PRELUDE.runInContext(context);
  const at = (e: unknown): string => {
    const m = new RegExp(`${escapeRegExp(file)}:(\\d+)`).exec(String((e as Error)?.stack ?? ''));
    return m ? `${file} line ${m[1]}` : `${file}, the JS block at line ${line}`;
  };
  let error: unknown;
  try {
    const script = new Script(
      `(async () => {\n${code}\n})().then(() => { __settled.done = true; }, (e) => { __settled.error = e; });`,
      { filename: file, lineOffset: line - 2 },
    );
    script.runInContext(context, { timeout: JS_TIME_LIMIT_MS });
    error = (context as { __settled?: { error?: unknown } }).__settled?.error;
  } catch (e) {
    if ((e as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new JsBlockError(`${file}, the JS block at line ${line}: it ran longer than ${JS_TIME_LIMIT_MS / 1000} s and was stopped.`);
    }
    error = e;
  }
  if (error !== undefined) throw new JsBlockError(`${at(error)}: the JS block failed: ${describe(error)}`);
  const out = JSON.parse(RESULT.runInContext(context) as string) as { vars?: Record<string, unknown>; done: boolean };
  if (!out.done) throw new JsBlockError(`${file}, the JS block at line ${line}: it waits for something that never comes; only bench.newSession() may be awaited.`);
  result.vars = out.vars ?? {};
  return result;
}

function describe(e: unknown): string {
  const err = e as { name?: string; message?: string };
  return err?.message ? `${err.name ?? 'Error'}: ${err.message}` : String(e);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
