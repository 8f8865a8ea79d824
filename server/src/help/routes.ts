import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { setRateLimitHeaders } from '../http/rate-limit-headers';
import type { AppContext } from '../lib/context';
import { faqMarkdown, parseFaq } from './faq';
import { FaqIndex } from './retrieval';
import { answerHelpChat, type HelpChatDeps } from './service';

const s = initServer();

/** 20 requests per minute per client address. */
export const helpChatLimit = { points: 20, durationSeconds: 60 };

/** The client address; behind a proxy (TRUST_PROXY) Express reads it from X-Forwarded-For. */
const clientAddress = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** POST /v1/help/chat: unauthenticated, rate-limited, answered from docs/faq.md; nothing stored or broadcast. */
export function helpRoutes(ctx: AppContext) {
  const entries = parseFaq(faqMarkdown());
  if (entries.length === 0)
    throw new Error('docs/faq.md has no entries: help chat has nothing to answer from');
  const deps: HelpChatDeps = {
    index: new FaqIndex(entries),
    llm: ctx.config.llm,
    logger: ctx.logger,
    docsUrl: `${ctx.config.publicBaseUrl}/docs`,
  };
  const limit = ctx.rateLimits.limit({ keyPrefix: 'help_chat_ip', ...helpChatLimit });
  return {
    helpChat: s.route(contract.public.helpChat, async ({ req, res, body }) => {
      setRateLimitHeaders(res, await limit.consume(clientAddress(req)));
      return { status: 200, body: await answerHelpChat(deps, body) };
    }),
  };
}
