/**
 * The limits of a JS block and the prelude that runs inside its QuickJS isolate before the
 * block. The prelude takes the host's two functions (a log line, a session switch) and the vars
 * as JSON, builds `vars` and `bench`, refuses code from strings, and returns the two functions
 * the host calls afterwards: `copyOut` (the vars as checked JSON) and `describe` (an error as
 * text). It captures the built-ins it uses before the block runs, so a block that replaces them
 * can spoil only its own error messages; everything that leaves the isolate is checked again by
 * the host anyway.
 */

/** At most this many `bench.log` lines per block; the next call throws inside the block. */
export const LOG_LINES = 100;
/** A `bench.log` text longer than this is cut, ending with "…". */
export const LOG_CHARS = 2000;
/** The vars, in and out, as JSON text. */
export const VARS_CHARS = 1_000_000;
/** How deep vars may nest. */
export const VARS_DEPTH = 64;
/** The longest error field (name, message, thrown value) read out of the isolate. */
export const ERROR_CHARS = 2000;
/** The longest stack read out of the isolate: enough for the first frames, which hold the line. */
export const STACK_CHARS = 4000;
/**
 * Separates the fields of `describe`'s answer: kind (`error` or `value`), name, message (or the
 * thrown value), stack. Not NUL, which ends a string on its way out of the isolate.
 */
export const FIELD_SEPARATOR = '\u001f';

/** Plain JavaScript, evaluated as one function expression; the host calls it once. */
export const PRELUDE = String.raw`(function (hostLog, hostNewSession, varsJson) {
  'use strict';
  const global = globalThis;
  const { getPrototypeOf, getOwnPropertyDescriptor, defineProperty, freeze, hasOwn } = Object;
  const ownKeys = Reflect.ownKeys;
  const isArray = Array.isArray;
  const stringify = JSON.stringify;
  const isFiniteNumber = Number.isFinite;
  const text = String;
  const call = Function.prototype.call;
  const sliceOf = call.bind(String.prototype.slice);
  const testOf = call.bind(RegExp.prototype.test);
  const replaceOf = call.bind(String.prototype.replace);
  const resolved = Promise.resolve.bind(Promise);
  const ObjectPrototype = Object.prototype;
  const ArrayPrototype = Array.prototype;
  const FunctionPrototype = Function.prototype;
  const TypeErrorClass = TypeError;
  const RangeErrorClass = RangeError;
  const EvalErrorClass = EvalError;
  const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  const fixed = (value) => ({ value, writable: false, enumerable: false, configurable: false });

  // Code from strings would still run inside the isolate, where nothing leads out; refusing it
  // keeps the message authors know, and keeps every constructor chain ending here.
  const refuse = function Function() { throw new EvalErrorClass('Code generation from strings disallowed for this context'); };
  defineProperty(refuse, 'prototype', { value: FunctionPrototype });
  for (const sample of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    defineProperty(getPrototypeOf(sample), 'constructor', fixed(refuse));
  }
  defineProperty(global, 'Function', fixed(refuse));
  defineProperty(global, 'eval', fixed(refuse));

  let logged = 0;
  const bench = freeze({
    newSession: function newSession() { hostNewSession(); return resolved(); },
    log: function log(value) {
      if (logged >= ${LOG_LINES})
        throw new RangeErrorClass('bench.log was called more than ${LOG_LINES} times; a block logs at most ${LOG_LINES} lines');
      logged += 1;
      let line = text(value);
      if (line.length > ${LOG_CHARS}) line = sliceOf(line, 0, ${LOG_CHARS} - 1) + '…';
      // NUL would end the text on its way out.
      line = replaceOf(line, /\u0000/g, '\ufffd');
      hostLog(line);
    },
  });
  defineProperty(global, 'bench', fixed(bench));
  global.vars = JSON.parse(varsJson);

  const PLAIN = '; vars hold only JSON data: objects, arrays, strings, finite numbers, true, false and null';
  const fail = (path, problem) => { throw new TypeErrorClass(path + ' ' + problem + PLAIN); };
  const budget = { chars: 0 };

  function check(value, path, ancestors) {
    switch (typeof value) {
      case 'string': budget.chars += value.length + 2; break;
      case 'boolean': budget.chars += 5; break;
      case 'number':
        if (!isFiniteNumber(value)) fail(path, 'is ' + text(value) + ', which JSON cannot hold');
        budget.chars += 8;
        break;
      case 'object':
        if (value === null) budget.chars += 4;
        else checkObject(value, path, ancestors);
        break;
      default: fail(path, value === undefined ? 'is undefined' : 'is a ' + typeof value);
    }
    if (budget.chars > ${VARS_CHARS}) throw new RangeErrorClass('vars hold more than ${VARS_CHARS} characters of JSON');
  }

  function checkObject(value, path, ancestors) {
    if (ancestors.length >= ${VARS_DEPTH}) fail(path, 'is nested more than ${VARS_DEPTH} levels deep');
    for (let i = 0; i < ancestors.length; i++) if (ancestors[i] === value) fail(path, 'is an object that contains itself (a cycle)');
    const array = isArray(value);
    const prototype = getPrototypeOf(value);
    const plain = array ? prototype === ArrayPrototype : prototype === ObjectPrototype || prototype === null;
    if (!plain) fail(path, 'is not a plain object or array');
    ancestors[ancestors.length] = value;
    const keys = ownKeys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (typeof key === 'symbol') fail(path, 'has a symbol key');
      if (array && key === 'length') continue;
      if (key === '__proto__') fail(path, 'has a key named __proto__');
      const descriptor = getOwnPropertyDescriptor(value, key);
      if (!descriptor || !descriptor.enumerable) continue;
      const at = array ? path + '[' + key + ']' : testOf(IDENTIFIER, key) ? path + '.' + key : path + '[' + stringify(key) + ']';
      if (!hasOwn(descriptor, 'value')) fail(at, 'is a getter or a setter');
      if (descriptor.value === undefined && !array) continue;
      budget.chars += key.length + 4;
      check(descriptor.value, at, ancestors);
    }
    ancestors.length -= 1;
  }

  function copyOut() {
    const descriptor = getOwnPropertyDescriptor(global, 'vars');
    const value = descriptor && hasOwn(descriptor, 'value') ? descriptor.value : undefined;
    if (value === null || typeof value !== 'object' || isArray(value)) fail('vars', 'must stay an object');
    check(value, 'vars', []);
    return stringify(value);
  }

  const cut = (value, limit) => (typeof value === 'string' ? (value.length > limit ? sliceOf(value, 0, limit - 1) + '…' : value) : '');
  const read = (object, key) => { try { return object[key]; } catch (error) { return undefined; } };

  function describe(error) {
    const isObject = (typeof error === 'object' && error !== null) || typeof error === 'function';
    const message = isObject ? read(error, 'message') : undefined;
    if (typeof message === 'string') {
      return 'error\u001f' + cut(read(error, 'name'), ${ERROR_CHARS}) + '\u001f' + cut(message, ${ERROR_CHARS})
        + '\u001f' + cut(read(error, 'stack'), ${STACK_CHARS});
    }
    let shown;
    try { shown = typeof error === 'string' ? error : stringify(error); } catch (failure) { shown = undefined; }
    if (typeof shown !== 'string') { try { shown = text(error); } catch (failure) { shown = 'a value that cannot be shown'; } }
    return 'value\u001f\u001f' + cut(shown, ${ERROR_CHARS}) + '\u001f' + cut(isObject ? read(error, 'stack') : '', ${STACK_CHARS});
  }

  return freeze({ copyOut, describe });
})`;
