/** The parts of node-llama-cpp the real-model server uses, typed here: the package is loaded at run time from the e2e tools folder. */
import type { ContextOptions, FunctionDefinitions, HistoryItem } from './history';

export interface ChatResult {
  response: string;
  functionCalls?: { functionName: string; params: unknown }[];
  metadata: { stopReason: string };
}
export interface Sequence {
  readonly contextTokens: readonly number[];
  readonly tokenMeter: { usedInputTokens: number; usedOutputTokens: number };
}
export interface LlamaChatInstance {
  generateResponse(
    history: HistoryItem[],
    options: {
      functions?: FunctionDefinitions;
      maxTokens: number;
      temperature: number;
      signal: AbortSignal;
      stopOnAbortSignal: false;
      onTextChunk?: (text: string) => void;
    },
  ): Promise<ChatResult>;
}
export interface NodeLlamaCpp {
  getLlama(options: { gpu: false; build: 'never'; logLevel: string; maxThreads: number }): Promise<Llama>;
  LlamaChat: new (options: { contextSequence: Sequence }) => LlamaChatInstance;
}
export interface Llama {
  readonly systemInfo: string;
  loadModel(options: { modelPath: string }): Promise<Model>;
}
export interface Model {
  createContext(options: ContextOptions): Promise<Context>;
}
export interface Context {
  readonly contextSize: number;
  readonly batchSize: number;
  readonly currentThreads: number;
  readonly flashAttention: boolean;
  getSequence(): Sequence;
}
