import type { Logger } from 'pino';
import type { Audience, Stage, Surface } from './faq';
import { type ChatTurn, completeChat, groundingPrompt, type LlmConfig } from './llm';
import { answerable, extractiveReply, fallbackReply, maxReplyLength, trimTo } from './replies';
import type { FaqIndex, SearchContext } from './retrieval';

export interface HelpChatInput {
  messages: ChatTurn[];
  audience?: Audience;
  surface?: Surface;
  eventType?: string;
  stage?: Stage;
}

export interface HelpChatDeps {
  index: FaqIndex;
  llm: LlmConfig | undefined;
  logger: Logger;
  /** Where the fallback reply sends hosts: the API reference page. */
  docsUrl: string;
}

/** FAQ entries handed to the LLM as grounding. */
const groundingEntries = 4;

/**
 * Answers the latest user turn from the FAQ: retrieval first; then the LLM over the retrieved
 * entries when one is configured, else the best entry's own answer. Nothing is stored.
 */
export async function answerHelpChat(deps: HelpChatDeps, input: HelpChatInput): Promise<{ reply: string }> {
  let latest = input.messages.length - 1;
  while (latest >= 0 && input.messages[latest]!.role !== 'user') latest--;
  // The contract refuses conversations without a user turn; this guards direct callers.
  if (latest < 0) throw new Error('help chat needs at least one user message');
  const question = input.messages[latest]!.text;
  const context: SearchContext = {
    audience: input.audience,
    surface: input.surface,
    stage: input.stage,
    eventType: input.eventType,
    earlierTurns: input.messages
      .slice(0, latest)
      .filter((m) => m.role === 'user')
      .map((m) => m.text),
  };
  const hits = deps.index.search(question, context, groundingEntries);
  const fallback = () =>
    answerable(hits) ? extractiveReply(hits[0]!) : fallbackReply(input.audience, deps.docsUrl);

  // Nothing in the FAQ shares a word with the question: the model would have nothing to ground on.
  if (!deps.llm || hits.length === 0) return { reply: fallback() };
  try {
    const system = groundingPrompt(
      hits.map((h) => h.entry),
      context,
      deps.docsUrl,
    );
    // Turns after the latest user turn are not sent: the model answers that turn, not its own reply.
    const reply = await completeChat(deps.llm, system, input.messages.slice(0, latest + 1));
    return { reply: trimTo(reply, maxReplyLength) };
  } catch (err) {
    deps.logger.warn(
      { err: (err as Error).message },
      'help chat: the LLM failed, answering from the FAQ directly',
    );
    return { reply: fallback() };
  }
}
