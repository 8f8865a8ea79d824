import type { Config } from '../config';

/** `LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL`, when configured. */
export type LlmConfig = NonNullable<Config['llm']>;

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Any failure of an LLM call (network, timeout, non-2xx, not JSON, no text); callers fall back. */
export class LlmError extends Error {}

/**
 * One call to an OpenAI-compatible `POST {LLM_BASE_URL}/chat/completions`, shared by help chat and
 * summaries. Resolves to the first choice's text, trimmed; throws LlmError otherwise. No redirects are
 * followed; the error message never carries the conversation.
 */
export async function chatCompletion(
  llm: LlmConfig,
  messages: LlmMessage[],
  opts: { timeoutMs: number; maxTokens?: number; json?: boolean },
): Promise<string> {
  const url = `${llm.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: llm.model,
        temperature: 0.2,
        ...(opts.maxTokens ? { max_tokens: opts.maxTokens } : {}),
        ...(opts.json ? { response_format: { type: 'json_object' } } : {}),
        messages,
      }),
      redirect: 'error',
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (err) {
    const reason =
      (err as Error).name === 'TimeoutError'
        ? `no answer within ${opts.timeoutMs} ms`
        : (err as Error).message;
    throw new LlmError(`LLM request failed: ${reason}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new LlmError(`LLM answered HTTP ${res.status}`);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new LlmError('LLM answered something that is not JSON');
  }
  const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message
    ?.content;
  if (typeof content !== 'string' || content.trim() === '') throw new LlmError('LLM answered no text');
  return content.trim();
}
