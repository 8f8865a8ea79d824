import type { Config } from '../config';
import type { FaqEntry } from './faq';
import type { SearchContext } from './retrieval';

export type LlmConfig = NonNullable<Config['llm']>;

export interface ChatTurn {
  role: 'user' | 'model';
  text: string;
}

/** Long enough for a short answer from a hosted model; a help chat that waits longer is broken anyway. */
export const llmTimeoutMs = 10_000;
const maxTokens = 500;

export class LlmError extends Error {}

/** The system message: the rules, the asker's context and the FAQ entries retrieval found. */
export function groundingPrompt(entries: FaqEntry[], context: SearchContext, docsUrl: string): string {
  const asker = [
    context.audience === 'viewer'
      ? 'The person asking attends events (a viewer or participant), so answer for an attendee, not an API integrator.'
      : context.audience === 'host'
        ? 'The person asking runs events (a host or workspace member).'
        : undefined,
    context.surface
      ? `They are asking from the ${context.surface === 'room' ? 'event room' : 'dashboard'}.`
      : undefined,
    context.eventType ? `The event's type label is "${context.eventType}".` : undefined,
    context.stage ? `The event is at stage "${context.stage}" (prelive, open, live or ended).` : undefined,
  ].filter(Boolean);
  const faq = entries.map((e, i) => `[${i + 1}] Q: ${e.question}\nA: ${e.answer}`).join('\n\n');
  return [
    'You are the Gathercast help assistant. Answer the latest user message using ONLY the FAQ entries below.',
    'If they do not answer it, say that you do not know and point to the API reference at ' +
      `${docsUrl} or to Gathercast support. Never invent endpoints, settings, limits or features.`,
    'Be brief: a few sentences, plain text or light Markdown.',
    ...asker,
    '',
    'FAQ entries:',
    faq,
  ].join('\n');
}

/**
 * One call to an OpenAI-compatible `POST {LLM_BASE_URL}/chat/completions`. Throws LlmError on any
 * failure (network, timeout, non-2xx, no text), so the caller can answer extractively instead.
 */
export async function completeChat(
  llm: LlmConfig,
  system: string,
  conversation: ChatTurn[],
  timeoutMs = llmTimeoutMs,
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
        max_tokens: maxTokens,
        messages: [
          { role: 'system', content: system },
          ...conversation.map((m) => ({ role: m.role === 'model' ? 'assistant' : 'user', content: m.text })),
        ],
      }),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const reason =
      (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (err as Error).message;
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
