/** The `openai` package, a chunk of its own: loaded by the first model client or model error. */
export { default as OpenAI } from 'openai';
// Its fetch comes with it: node:https (and TLS) load only when a model is called.
export { httpFetch } from '../httpFetch';
