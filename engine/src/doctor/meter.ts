/**
 * What `mmb doctor` reads off every response of the model under test: a wrapper that keeps each
 * response's usage, and the two lines made from them (usage reported; prefix caching seen).
 */
import type { CallOptions, ChatModel, ChatRequest, ChatResponse } from '../models/chat';
import type { DoctorResult } from './lines';

export type ResponseUsage = ChatResponse['usage'];

export class MeteredModel implements ChatModel {
  readonly name: string;
  readonly usages: ResponseUsage[] = [];

  constructor(private readonly inner: ChatModel) {
    this.name = inner.name;
  }

  async complete(request: ChatRequest, options?: CallOptions): Promise<ChatResponse> {
    const response = await this.inner.complete(request, options);
    this.usages.push(response.usage);
    return response;
  }
}

/**
 * Passes when every response reported its tokens. Every request has a prompt, so 0 prompt tokens
 * is no report; an empty reply may rightly have 0 completion tokens.
 */
export function usageResult(usages: readonly ResponseUsage[]): DoctorResult {
  if (usages.length === 0) return { id: 'usage', status: 'fail', detail: 'no response came back' };
  const missing = usages.filter((usage) => usage.promptTokens <= 0).length;
  if (missing) return { id: 'usage', status: 'fail', detail: `${missing} of ${usages.length} responses reported no token counts` };
  const prompt = usages.reduce((sum, usage) => sum + usage.promptTokens, 0).toLocaleString('en-US');
  const completion = usages.reduce((sum, usage) => sum + usage.completionTokens, 0).toLocaleString('en-US');
  return { id: 'usage', status: 'pass', detail: `${usages.length} responses, ${prompt} prompt + ${completion} completion tokens` };
}

/** Passes when some response reported prompt tokens served from the provider's prefix cache. */
export function prefixCacheResult(usages: readonly ResponseUsage[]): DoctorResult {
  const hits = usages.filter((usage) => (usage.cachedTokens ?? 0) > 0);
  if (hits.length === 0) {
    const reported = usages.some((usage) => usage.cachedTokens !== undefined);
    const said = reported ? '0 cached tokens' : 'no cached tokens reported (no prompt_tokens_details.cached_tokens)';
    return { id: 'prefix-cache', status: 'fail', detail: `${said} over ${usages.length} requests that repeat their prefix` };
  }
  const cached = hits.reduce((sum, usage) => sum + (usage.cachedTokens ?? 0), 0);
  const prompt = usages.reduce((sum, usage) => sum + usage.promptTokens, 0);
  const share = prompt > 0 ? Math.round((100 * cached) / prompt) : 0;
  return {
    id: 'prefix-cache',
    status: 'pass',
    detail: `${hits.length} of ${usages.length} requests served from the cache: ${cached.toLocaleString('en-US')} tokens, ${share}% of all`,
  };
}
