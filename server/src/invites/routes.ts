import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import { clientAddress } from '../http/client-address';
import { setRateLimitHeaders } from '../http/rate-limit-headers';
import type { AppContext } from '../lib/context';
import { actorOf } from '../lib/actor';
import { acceptInvite, createInvite, listInvites, previewInvite, revokeInvite } from './service';

const s = initServer();

export const invitesRoutes = (ctx: AppContext) =>
  s.router(contract.invites, {
    create: async ({ body, req, res }) => {
      if (body.email) {
        const who = { address: clientAddress(req), target: body.email };
        setRateLimitHeaders(res, await ctx.abuseLimits.consume('invite', who));
      }
      return { status: 201, body: await createInvite(req.em, ctx, actorOf(req), body) };
    },
    list: async ({ req, query }) => ({ status: 200, body: await listInvites(req.em, actorOf(req).workspaceId, query) }),
    revoke: async ({ params, req }) => {
      await revokeInvite(req.em, actorOf(req).workspaceId, params.inviteId);
      return { status: 204, body: undefined };
    },
    preview: async ({ params, req }) => ({ status: 200, body: await previewInvite(req.em, params.token) }),
    accept: async ({ params, req }) => {
      const accepted = await acceptInvite(req.em, req.auth.accountId!, params.token);
      // A workspace invite changes membership, which cached sessions carry.
      await ctx.credentialChanges.propagated();
      return { status: 200, body: accepted };
    },
  });
