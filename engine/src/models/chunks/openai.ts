/** The `openai` package, a chunk of its own: loaded by the first model client or model error. */
export { default as OpenAI } from 'openai';
