/**
 * A JS block in its own QuickJS isolate: a separate JavaScript engine compiled to WebAssembly,
 * with its own heap, so no object of the host's realm (`process`, `require`, the host's
 * `Function`) exists where the block runs. Only strings cross the boundary: the vars as JSON in,
 * the vars as checked JSON out, `bench.log` texts and the session switch. The isolate enforces
 * the memory cap, the stack cap and the time limit (an interrupt handler); every runtime is
 * disposed after its block. This module runs in the sandbox's worker thread (`sandboxWorker.ts`);
 * the engine's thread (`sandbox.ts`) ends that thread when a built-in in native code keeps the
 * interrupt handler from stopping a block.
 */
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type CustomizeVariantOptions,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-singlefile-cjs-release-sync';
import { JS_TIME_LIMIT_MS, tooLong, type BlockRequest, type SandboxResult } from './sandbox';
import { JsBlockError } from '../errors';
import { ERROR_CHARS, FIELD_SEPARATOR, LOG_CHARS, LOG_LINES, PRELUDE, STACK_CHARS, VARS_CHARS, VARS_DEPTH } from './sandboxPrelude';
import { oneLine, shorten } from '../../../scenario/src/plainText';

/** The isolate's heap; a block that needs more is stopped. */
export const JS_MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;
/**
 * Promise jobs a block may run. A chain of promises that each resolve to the next grows until the
 * memory cap rejects it, and that rejection lands on a promise nobody awaits: without a count the
 * block would end as if it had finished, or not, depending on the machine's speed.
 */
export const JS_JOB_LIMIT = 100_000;
/** The isolate's stack, well inside the WebAssembly stack it lives on. */
export const JS_STACK_LIMIT_BYTES = 512 * 1024;
/** Room for the prelude's own work after a block that filled its heap. */
const EPILOGUE_BYTES = 4 * 1024 * 1024;
/** The longest error text the engine reports. */
const MESSAGE_CHARS = 1000;

type EmscriptenModuleLoaderOptions = NonNullable<CustomizeVariantOptions['emscriptenModule']>;

function ignore(): void {}

/** Where a block stands, for its error messages: `line` is the document line of its first line. */
interface Place {
  file: string;
  line: number;
  lines: number;
}

/** Emscripten prints a trap's reason on stderr, over the engine's progress; the error says it anyway. */
const QUIET = newVariant(variant, { emscriptenModule: { print: ignore, printErr: ignore } as EmscriptenModuleLoaderOptions });

let modulePromise: Promise<QuickJSWASMModule> | undefined;

/** The WebAssembly module, loaded once per thread (about 30 ms); each block gets a fresh runtime in it. */
export function loadQuickJs(): Promise<QuickJSWASMModule> {
  modulePromise ??= newQuickJSWASMModuleFromVariant(QUIET);
  return modulePromise;
}

/**
 * Runs one block: its result, or a `JsBlockError` naming its file and line. Any other error is a
 * failure of the module itself (a WebAssembly trap), which is then dropped for a fresh one.
 */
export async function runBlock(request: BlockRequest): Promise<SandboxResult> {
  const place: Place = { file: request.file, line: request.line, lines: request.code.split('\n').length };
  const module = await loadQuickJs();
  try {
    return runInIsolate(module, request.code, request.varsJson, place);
  } catch (error) {
    if (!(error instanceof JsBlockError)) forgetModule();
    throw error;
  }
}

function forgetModule(): void {
  modulePromise = undefined;
}

/** Everything below is synchronous, so blocks of runs in the same process never interleave. */
function runInIsolate(module: QuickJSWASMModule, code: string, varsJson: string, place: Place): SandboxResult {
  const runtime = module.newRuntime();
  let isolate: Isolate | undefined;
  try {
    runtime.setMemoryLimit(JS_MEMORY_LIMIT_BYTES);
    runtime.setMaxStackSize(JS_STACK_LIMIT_BYTES);
    isolate = new Isolate(runtime, runtime.newContext(), place);
    return isolate.run(code, varsJson);
  } finally {
    try {
      isolate?.dispose();
      runtime.dispose();
    } catch {
      // QuickJS asserts that a freed runtime holds no object; a block interrupted in the middle
      // of a promise job can break that and abort the module. The block's own outcome stands,
      // and the next block gets a fresh module.
      forgetModule();
    }
  }
}

/** One block in one fresh runtime; every handle it takes is disposed with it. */
class Isolate {
  private readonly handles: QuickJSHandle[] = [];
  private readonly result: SandboxResult = { vars: {}, logs: [], newSession: false };
  private deadline = Number.POSITIVE_INFINITY;
  private timedOut = false;

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly vm: QuickJSContext,
    private readonly place: Place,
  ) {
    runtime.setInterruptHandler(() => {
      if (Date.now() < this.deadline) return false;
      this.timedOut = true;
      return true;
    });
  }

  run(code: string, varsJson: string): SandboxResult {
    const { vm, place } = this;
    const api = this.prelude(varsJson);
    const describe = this.keep(vm.getProp(api, 'describe'));
    const copyOut = this.keep(vm.getProp(api, 'copyOut'));
    this.deadline = Date.now() + JS_TIME_LIMIT_MS;
    const evaluated = vm.evalCode(`(async () => {\n${code}\n})()`, place.file);
    if (evaluated.error) throw blockError(place, this.describe(describe, this.keep(evaluated.error)));
    const promise = this.keep(evaluated.value);
    const jobs = this.runtime.executePendingJobs(JS_JOB_LIMIT);
    if (jobs.error) throw blockError(place, this.describe(describe, this.keep(jobs.error)));
    this.stopIfLate();
    if (this.runtime.hasPendingJob()) {
      throw new JsBlockError(`${at(place)}: it queued more than ${JS_JOB_LIMIT.toLocaleString('en')} promise jobs and was stopped.`);
    }
    const state = vm.getPromiseState(promise);
    if (state.type === 'pending') {
      throw new JsBlockError(`${at(place)}: it waits for something that never comes; only bench.newSession() may be awaited.`);
    }
    if (state.type === 'rejected') throw blockError(place, this.describe(describe, this.keep(state.error)));
    this.keep(state.value);
    const copied = vm.callFunction(copyOut, vm.undefined);
    this.keep(copied.error ?? copied.value);
    this.stopIfLate();
    if (copied.error) throw varsError(place, this.describe(describe, copied.error));
    this.result.vars = parseVars(vm.getString(copied.value), place);
    return this.result;
  }

  dispose(): void {
    for (const handle of this.handles.reverse()) if (handle.alive) handle.dispose();
    this.vm.dispose();
  }

  /** Builds `vars` and `bench` in the isolate, and returns the prelude's `copyOut` and `describe`. */
  private prelude(varsJson: string): QuickJSHandle {
    const { vm, result } = this;
    const log = this.keep(
      vm.newFunction('log', (textHandle) => {
        if (vm.typeof(textHandle) !== 'string' || result.logs.length >= LOG_LINES) return;
        result.logs.push(shorten(vm.getString(textHandle), LOG_CHARS));
      }),
    );
    const newSession = this.keep(
      vm.newFunction('newSession', () => {
        result.newSession = true;
      }),
    );
    const prelude = this.keep(vm.unwrapResult(vm.evalCode(PRELUDE, 'mmb-sandbox-prelude.js')));
    return this.keep(vm.unwrapResult(vm.callFunction(prelude, vm.undefined, log, newSession, this.keep(vm.newString(varsJson)))));
  }

  /** An error of the isolate as `describe`'s fields; undefined when even that fails. */
  private describe(describe: QuickJSHandle, errorHandle: QuickJSHandle): string | undefined {
    this.stopIfLate();
    // The block may have filled its heap; describing its error needs a little room.
    this.runtime.setMemoryLimit(JS_MEMORY_LIMIT_BYTES + EPILOGUE_BYTES);
    const described = this.vm.callFunction(describe, this.vm.undefined, errorHandle);
    this.keep(described.error ?? described.value);
    this.stopIfLate();
    return described.error ? undefined : this.vm.getString(described.value);
  }

  private stopIfLate(): void {
    if (this.timedOut) throw tooLong(this.place.file, this.place.line);
  }

  private keep(handle: QuickJSHandle): QuickJSHandle {
    this.handles.push(handle);
    return handle;
  }
}

/** The error of a block, from `describe`'s fields, located at the document line of the block's own frame. */
function blockError(place: Place, fields: string | undefined): JsBlockError {
  if (fields === undefined) return new JsBlockError(`${at(place)}: it failed, and its error could not be read.`);
  const [kind = '', name = '', message = '', stack = ''] = fields.split(FIELD_SEPARATOR);
  if (kind === 'error' && name === 'InternalError' && message === 'out of memory') {
    return new JsBlockError(`${at(place)}: it used more than ${JS_MEMORY_LIMIT_BYTES / 1024 / 1024} MB of memory and was stopped.`);
  }
  const frame = new RegExp(`${escapeRegExp(place.file)}:(\\d+)`).exec(shorten(stack, STACK_CHARS));
  const where = frame ? `${place.file} line ${documentLine(place, Number(frame[1]))}` : at(place);
  const what = kind === 'error' ? `${name || 'Error'}: ${sameAsNode(name, message)}` : `it threw ${shorten(message, ERROR_CHARS)}`;
  return new JsBlockError(boundedMessage(`${where}: the JS block failed: ${what}`));
}

/** A failure to copy the vars out: the prelude's own message, or a Proxy's. */
function varsError(place: Place, fields: string | undefined): JsBlockError {
  const [, , message = 'they could not be read'] = (fields ?? '').split(FIELD_SEPARATOR);
  return new JsBlockError(boundedMessage(`${at(place)}: its vars cannot be kept: ${message}`));
}

/** The script's line 1 is the wrapper's opening, so its line 2 is the block's first line. */
function documentLine(place: Place, scriptLine: number): number {
  return Math.min(Math.max(scriptLine - 1, 1), place.lines) + place.line - 1;
}

/** QuickJS quotes the name in "'x' is not defined"; authors know Node's wording. */
function sameAsNode(name: string, message: string): string {
  return name === 'ReferenceError' ? message.replace(/^'(.*)' is not defined$/, '$1 is not defined') : message;
}

/** The block's vars, checked again on this side of the boundary: a plain object of JSON data, bounded. */
function parseVars(json: string, place: Place): Record<string, unknown> {
  if (json.length > VARS_CHARS) throw new JsBlockError(`${at(place)}: its vars hold more than ${VARS_CHARS} characters of JSON.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new JsBlockError(`${at(place)}: its vars are not JSON.`);
  }
  if (!isRecord(parsed)) throw new JsBlockError(`${at(place)}: vars must stay an object.`);
  // Iterative, so a deep value cannot exhaust the host's stack.
  const pending: { value: unknown; depth: number }[] = [{ value: parsed, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > VARS_DEPTH) throw new JsBlockError(`${at(place)}: its vars are nested more than ${VARS_DEPTH} levels deep.`);
    for (const [key, value] of Object.entries(next.value)) {
      if (key === '__proto__') throw new JsBlockError(`${at(place)}: its vars have a key named __proto__.`);
      pending.push({ value, depth: next.depth + 1 });
    }
  }
  return parsed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function at(place: Place): string {
  return `${place.file}, the JS block at line ${place.line}`;
}

/** Error texts are journaled and shown on one line: control characters and line breaks become spaces. */
function boundedMessage(text: string): string {
  return shorten(oneLine(text), MESSAGE_CHARS);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
