import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { actorOf } from '../lib/actor';
import type { TokenDeps } from './gateway-token-service';
import { createJoinLink, listJoinLinks, openJoinLink, revokeJoinLink } from './join-links';
import { mintFor, openEvent, resolveHolder } from './server-minted';

const s = initServer();

/** Server-minted live access: tokens and personal join links (docs/live.md). Registered in server/src/app/routes.ts. */
export function liveAccessRoutes(deps: TokenDeps) {
  return {
    tokens: s.router(contract.liveTokens, {
      create: async ({ req, params, body }) => {
        const actor = actorOf(req);
        const event = await openEvent(deps, actor.workspaceId, params.id);
        const holder = await resolveHolder(req.em, actor, params.id, body);
        return { status: 201, body: await mintFor(req.em, deps, event, holder) };
      },
    }),
    joinLinks: s.router(contract.liveJoinLinks, {
      list: async ({ req, params, query }) => ({
        status: 200,
        // ts-rest types req.query as the parsed query (a number for `limit`), which express's Request does not accept.
        body: await listJoinLinks(req.em, actorOf(req as unknown as Request), params.id, query),
      }),
      create: async ({ req, params, body }) => ({
        status: 201,
        body: await createJoinLink(req.em, deps, actorOf(req), params.id, body),
      }),
      revoke: async ({ req, params }) => {
        await revokeJoinLink(req.em, actorOf(req), params.id, params.linkId);
        return { status: 204, body: undefined };
      },
      open: async ({ req, res, params }) => {
        // A fresh token per GET: never cached by a browser or a proxy.
        res.setHeader('Cache-Control', 'no-store');
        return { status: 200, body: await openJoinLink(req.em, deps, params.code) };
      },
    }),
  };
}
