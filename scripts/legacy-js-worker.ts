/**
 * The JS block sandbox before the QuickJS isolate, kept only as the bench's baseline: a
 * `node:vm` context in a fresh worker thread per block. Not a security boundary (`vm` shares the
 * host's engine); never use it to run a block.
 */
import { Worker } from 'node:worker_threads';

const WORKER = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { Script, createContext } = require('node:vm');
const { code, vars, limit } = workerData;
const result = { logs: [], newSession: false };
const host = { vars, newSession: () => { result.newSession = true; }, log: (t) => { result.logs.push(t); } };
const context = createContext({ __host: host }, { codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' });
new Script("(() => { const host = globalThis.__host; delete globalThis.__host;"
  + " globalThis.vars = JSON.parse(host.vars);"
  + " globalThis.bench = Object.freeze({"
  + " newSession: () => { host.newSession(); return Promise.resolve(); }, log: (text) => { host.log(String(text)); } });"
  + " Object.defineProperty(globalThis, '__settled', { value: {}, enumerable: false }); })();").runInContext(context);
const settle = '.then(() => { __settled.done = true; }, (e) => { __settled.error = e; });';
new Script('(async () => {\n' + code + '\n})()' + settle).runInContext(context, { timeout: limit });
const varsJson = new Script('JSON.stringify(globalThis.vars)').runInContext(context);
parentPort.postMessage({ vars: varsJson, logs: result.logs, newSession: result.newSession });
`;

/** Runs a well-behaved block the old way and returns its vars; errors are not the baseline's concern. */
export function runLegacyJsBlock(code: string, vars: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { code, vars: JSON.stringify(vars), limit: 1000 },
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
      stdout: true,
      stderr: true,
    });
    worker.once('message', (reply: { vars: string }) => {
      void worker.terminate();
      resolve(JSON.parse(reply.vars) as Record<string, unknown>);
    });
    worker.once('error', reject);
  });
}
