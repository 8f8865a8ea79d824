import { chatCompletion, type LlmConfig } from '../lib/llm';
import type { FaqEntry } from './faq';
import type { SearchContext } from './retrieval';

export { type LlmConfig, LlmError } from '../lib/llm';

export interface ChatTurn {
  role: 'user' | 'model';
  text: string;
}

/** Long enough for a short answer from a hosted model; a help chat that waits longer is broken anyway. */
export const llmTimeoutMs = 10_000;
const maxTokens = 500;

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
 * The help chat's call: the grounding system message, then the conversation (model turns as the
 * `assistant` role). Throws LlmError on any failure, so the caller can answer extractively instead.
 */
export function completeChat(
  llm: LlmConfig,
  system: string,
  conversation: ChatTurn[],
  timeoutMs = llmTimeoutMs,
): Promise<string> {
  return chatCompletion(
    llm,
    [
      { role: 'system', content: system },
      ...conversation.map((m) => ({
        role: m.role === 'model' ? ('assistant' as const) : ('user' as const),
        content: m.text,
      })),
    ],
    { timeoutMs, maxTokens },
  );
}
