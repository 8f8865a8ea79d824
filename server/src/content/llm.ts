import type { Logger } from 'pino';
import type { Config } from '../config';

export type LlmConfig = NonNullable<Config['llm']>;

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** One answer may take this long; after it the caller falls back to the extractive engine. */
export const llmTimeoutMs = 20_000;

/** Transcript text sent to the model is capped (the head of a long transcript is kept). */
export const llmInputChars = 60_000;

/**
 * One call to an OpenAI-compatible `POST {LLM_BASE_URL}/chat/completions`. Resolves to the first
 * choice's text, or null on any failure (network, timeout, non-2xx, malformed or empty answer), which
 * is logged without the transcript.
 */
export async function chatCompletion(
  llm: LlmConfig,
  logger: Logger,
  messages: ChatMessage[],
  opts: { json?: boolean } = {},
): Promise<string | null> {
  const url = `${llm.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: llm.model,
        messages,
        temperature: 0.2,
        ...(opts.json ? { response_format: { type: 'json_object' } } : {}),
      }),
      redirect: 'error',
      signal: AbortSignal.timeout(llmTimeoutMs),
    });
    if (!res.ok) {
      logger.warn({ status: res.status }, 'LLM answered an error; using the extractive engine');
      return null;
    }
    const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || !content.trim()) {
      logger.warn('LLM answer had no text; using the extractive engine');
      return null;
    }
    return content.trim();
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'LLM call failed; using the extractive engine');
    return null;
  }
}

/** Segments as "Name: text" lines, for the model. */
export function transcriptForModel(lines: { speakerName?: string | null; text: string }[]): string {
  const text = lines.map((l) => `${l.speakerName ?? 'Speaker'}: ${l.text}`).join('\n');
  return text.length > llmInputChars ? text.slice(0, llmInputChars) : text;
}
