import type { Logger } from 'pino';
import { chatCompletion, type LlmConfig, type LlmMessage } from '../lib/llm';

export type { LlmConfig } from '../lib/llm';

/** One answer may take this long; after it the caller falls back to the extractive engine. */
export const llmTimeoutMs = 20_000;

/** Transcript text sent to the model is capped (the head of a long transcript is kept). */
export const llmInputChars = 60_000;

/**
 * The summaries' call: the model's text, or null on any failure, logged (without the transcript) so the
 * caller falls back to the extractive engine.
 */
export async function completeOrNull(
  llm: LlmConfig,
  logger: Logger,
  messages: LlmMessage[],
  opts: { json?: boolean } = {},
): Promise<string | null> {
  try {
    return await chatCompletion(llm, messages, { timeoutMs: llmTimeoutMs, json: opts.json });
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
