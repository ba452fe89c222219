/** The GPT tokenizer (2.9 MB bundled), a chunk of its own: loaded on the first token count. */
export { countTokens } from 'gpt-tokenizer';
