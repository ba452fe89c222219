/**
 * Runs a phase's JS block in a QuickJS isolate (`isolate.ts`) inside one long-lived worker
 * thread. The isolate is the boundary: a separate engine with its own heap, reached only by
 * strings. The worker is the watchdog: QuickJS stops a block's own code at its deadline, but a
 * built-in running in native code (`Array.prototype.includes` over a huge array-like) never
 * looks at the interrupt handler, so the engine's thread ends the worker when the answer is late
 * and starts a fresh one for the next block. The worker gets an empty environment, so even a
 * way out of the isolate would find no API key. `bench.newSession()` is only recorded: the engine
 * carries it out after the block.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { VARS_CHARS } from './sandboxPrelude';
import { JsBlockError } from '../errors';

export interface SandboxResult {
  vars: Record<string, unknown>;
  logs: string[];
  newSession: boolean;
}

export const JS_TIME_LIMIT_MS = 1000;
/** How much later than the isolate's own deadline the watchdog ends the worker. */
const WATCHDOG_GRACE_MS = 1000;
/** A fresh worker loads the WebAssembly module before its first block; a loaded machine is slow. */
const START_TIMEOUT_MS = 30_000;

/** What the engine's thread sends the worker: the vars go as JSON text. */
export interface BlockRequest {
  id: number;
  code: string;
  varsJson: string;
  file: string;
  line: number;
}

/** What the worker answers: a result, a block's error, or a failure of the sandbox itself. */
export type BlockReply =
  | { id: number; result: SandboxResult }
  | { id: number; error: string }
  | { id: number; failure: string }
  | { ready: true }
  | { failure: string };

/** In the bundle the worker is its own file beside it; from the sources (tests, scripts) it goes through tsx. */
const FROM_SOURCES = __filename.endsWith('.ts');
const WORKER_FILE = FROM_SOURCES ? join(__dirname, 'sandboxWorker.ts') : join(__dirname, 'sandbox-worker.js');

let worker: Promise<Worker> | undefined;
/** The started worker that `worker` resolved to, so that only its own exit forgets it. */
let live: Worker | undefined;
let queue: Promise<unknown> = Promise.resolve();
let nextId = 1;

export function tooLong(file: string, line: number): JsBlockError {
  return new JsBlockError(`${file}, the JS block at line ${line}: it ran longer than ${JS_TIME_LIMIT_MS / 1000} s and was stopped.`);
}

/**
 * `line` is the 1-based document line of the code's first line, for error messages. Blocks run
 * one at a time, so the watchdog's clock starts when the worker starts the block.
 */
export function runJsBlock(code: string, vars: Record<string, unknown>, file: string, line: number): Promise<SandboxResult> {
  const varsJson = JSON.stringify(vars);
  if (varsJson.length > VARS_CHARS) {
    return Promise.reject(
      new JsBlockError(`${file}, the JS block at line ${line}: its vars hold more than ${VARS_CHARS} characters of JSON.`),
    );
  }
  const turn = queue.then(() => runInWorker({ id: nextId++, code, varsJson, file, line }));
  queue = turn.catch(() => undefined);
  return turn;
}

async function runInWorker(request: BlockRequest): Promise<SandboxResult> {
  const failed = (what: string) => new JsBlockError(`${request.file}, the JS block at line ${request.line}: the JS sandbox ${what}`);
  let thread: Worker;
  try {
    thread = await (worker ??= startWorker());
  } catch (error) {
    worker = undefined;
    throw failed(`did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  return new Promise((resolve, reject) => {
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      thread.off('message', onMessage);
      thread.off('exit', onExit);
      finish();
    };
    const timer = setTimeout(
      () =>
        settle(() => {
          stopWorker(thread);
          reject(tooLong(request.file, request.line));
        }),
      JS_TIME_LIMIT_MS + WATCHDOG_GRACE_MS,
    );
    const onMessage = (reply: BlockReply) => {
      if (!('id' in reply) || reply.id !== request.id) return;
      settle(() => {
        if ('result' in reply) resolve(reply.result);
        else if ('error' in reply) reject(new JsBlockError(reply.error));
        else {
          stopWorker(thread);
          reject(failed(`failed: ${reply.failure}`));
        }
      });
    };
    const onExit = () =>
      settle(() => {
        stopWorker(thread);
        reject(failed('stopped.'));
      });
    thread.on('message', onMessage);
    thread.on('exit', onExit);
    thread.postMessage(request);
  });
}

function startWorker(): Promise<Worker> {
  // The QuickJS heap is WebAssembly memory, capped by the isolate; this caps the thread's own.
  // QuickJS counts its stack in WebAssembly memory, but each of its frames also takes the
  // thread's native stack: 4 MB (a worker's default, too small on the main thread) lets
  // QuickJS's own 512 KB limit come first.
  const options = { env: {}, resourceLimits: { maxOldGenerationSizeMb: 128, stackSizeMb: 4 } };
  const thread = FROM_SOURCES
    ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(WORKER_FILE)});`, { ...options, eval: true })
    : new Worker(WORKER_FILE, options);
  // An idle sandbox does not keep the engine's process alive; a waiting block has its timer.
  thread.unref();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`it was not ready after ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      void thread.terminate();
      reject(error);
    };
    thread.once('error', fail);
    thread.once('exit', (code) => fail(new Error(`it exited with code ${code}`)));
    thread.once('message', (reply: BlockReply) => {
      if (!('ready' in reply)) return fail(new Error('failure' in reply ? reply.failure : 'it answered out of turn'));
      clearTimeout(timer);
      thread.removeAllListeners('exit');
      thread.removeAllListeners('error');
      // A later error also ends the thread: a waiting block sees its exit, the next block a fresh worker.
      thread.on('error', () => undefined);
      thread.once('exit', () => forget(thread));
      live = thread;
      resolve(thread);
    });
  });
}

function stopWorker(thread: Worker): void {
  forget(thread);
  void thread.terminate();
}

function forget(thread: Worker): void {
  if (live !== thread) return;
  live = undefined;
  worker = undefined;
}
