/**
 * Runs a phase's JS block in a `node:vm` context that holds only `vars` and `bench`, inside a
 * worker thread that is ended after one second. The worker keeps a runaway block (a loop, an
 * endless chain of promises, a memory bomb) away from the engine's own thread, where a vm
 * timeout in the middle of promise jobs can corrupt Node's async bookkeeping. Everything the
 * block can reach is made inside the context, so no `constructor` chain leads out of it, and
 * `bench.newSession()` is only recorded: the engine carries it out after the block.
 */
import { Worker } from 'node:worker_threads';

export interface SandboxResult {
  vars: Record<string, unknown>;
  logs: string[];
  newSession: boolean;
}

export class JsBlockError extends Error {}

export const JS_TIME_LIMIT_MS = 1000;

/** The worker's program: plain JavaScript, so it runs the same from the sources and from the bundle. */
const WORKER = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { Script, createContext } = require('node:vm');
const { code, vars, file, line, limit } = workerData;
const result = { logs: [], newSession: false };
const host = { vars, newSession: () => { result.newSession = true; }, log: (t) => { result.logs.push(t); } };
const context = createContext({ __host: host }, { codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' });
new Script("(() => { const host = globalThis.__host; delete globalThis.__host;"
  + " globalThis.vars = JSON.parse(host.vars);"
  + " globalThis.bench = Object.freeze({ newSession: () => { host.newSession(); return Promise.resolve(); }, log: (text) => { host.log(String(text)); } });"
  + " Object.defineProperty(globalThis, '__settled', { value: {}, enumerable: false }); })();").runInContext(context);
const fail = (e) => ({ name: e && e.name, message: e && e.message !== undefined ? String(e.message) : String(e), stack: String(e && e.stack || '') });
try {
  new Script('(async () => {\n' + code + '\n})().then(() => { __settled.done = true; }, (e) => { __settled.error = e; });',
    { filename: file, lineOffset: line - 2 }).runInContext(context, { timeout: limit });
  const settled = context.__settled;
  if (settled.error !== undefined) parentPort.postMessage({ error: fail(settled.error) });
  else if (!settled.done) parentPort.postMessage({ pending: true });
  else parentPort.postMessage({ ok: true, vars: new Script('JSON.stringify(globalThis.vars)').runInContext(context), logs: result.logs, newSession: result.newSession });
} catch (e) {
  parentPort.postMessage(e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' ? { timeout: true } : { error: fail(e) });
}
`;

type Reply =
  | { ok: true; vars: string; logs: string[]; newSession: boolean }
  | { error: { name?: string; message: string; stack: string } }
  | { pending: true }
  | { timeout: true };

/** `line` is the 1-based document line of the code's first line, for error messages. */
export function runJsBlock(code: string, vars: Record<string, unknown>, file: string, line: number): Promise<SandboxResult> {
  const tooLong = () => new JsBlockError(`${file}, the JS block at line ${line}: it ran longer than ${JS_TIME_LIMIT_MS / 1000} s and was stopped.`);
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { code, vars: JSON.stringify(vars), file, line, limit: JS_TIME_LIMIT_MS },
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      f();
    };
    // The vm's own limit stops synchronous work; this one ends anything that escapes it.
    const timer = setTimeout(() => settle(() => reject(tooLong())), JS_TIME_LIMIT_MS + 1000);
    worker.on('message', (reply: Reply) => settle(() => {
      if ('ok' in reply) resolve({ vars: JSON.parse(reply.vars ?? '{}') as Record<string, unknown>, logs: reply.logs, newSession: reply.newSession });
      else if ('timeout' in reply) reject(tooLong());
      else if ('pending' in reply) reject(new JsBlockError(`${file}, the JS block at line ${line}: it waits for something that never comes; only bench.newSession() may be awaited.`));
      else {
        const m = new RegExp(`${escapeRegExp(file)}:(\\d+)`).exec(reply.error.stack);
        const at = m ? `${file} line ${m[1]}` : `${file}, the JS block at line ${line}`;
        reject(new JsBlockError(`${at}: the JS block failed: ${reply.error.name ?? 'Error'}: ${reply.error.message}`));
      }
    }));
    worker.on('error', (e) => settle(() => reject(new JsBlockError(`${file}, the JS block at line ${line}: it was stopped: ${e.message}`))));
    worker.on('exit', () => settle(() => reject(tooLong())));
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
