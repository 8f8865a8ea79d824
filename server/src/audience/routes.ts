import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { actorOf } from '../lib/actor';
import { listChat } from './chat-service';
import { listPolls } from './polls-service';
import { listReactions } from './reactions-service';

const s = initServer();

// ts-rest types req.query as the parsed query (a number for `limit`), which express's Request type does not accept.
const callerOf = (req: unknown) => actorOf(req as Request);

/** What a live audience left behind: poll results, reaction totals, the chat log (docs/audience-records.md). */
export const pollsRoutes = () =>
  s.router(contract.polls, {
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listPolls(req.em, callerOf(req), params.id, query),
    }),
  });

export const reactionsRoutes = () =>
  s.router(contract.reactions, {
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listReactions(req.em, callerOf(req), params.id, query),
    }),
  });

export const chatRoutes = () =>
  s.router(contract.chat, {
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listChat(req.em, callerOf(req), params.id, query),
    }),
  });
