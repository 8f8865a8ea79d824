import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import { clientAddress } from '../http/client-address';
import { setRateLimitHeaders } from '../http/rate-limit-headers';
import type { AppContext } from '../lib/context';
import { enter } from './entry-service';
import { register } from './registration-service';
import { publicEventView } from './view-service';

const s = initServer();

/** The public routes of this domain; table-summary, recap, content, assets and help chat belong elsewhere. */
export const publicRoutes = (ctx: AppContext) => ({
  getEvent: s.route(contract.public.getEvent, async ({ req, params }) => ({
    status: 200,
    body: await publicEventView(req.em, req.auth, params.id, ctx.config.hlsBaseUrl),
  })),
  register: s.route(contract.public.register, async ({ req, res, params, body }) => {
    setRateLimitHeaders(res, await ctx.abuseLimits.consume('registration', { address: clientAddress(req), target: body.email }));
    return { status: 200, body: await register(ctx, req.em, req.auth, params.id, body) };
  }),
  enter: s.route(contract.public.enter, async ({ req, params, body }) => ({
    status: 200,
    body: await enter(req.em, params.id, body.token),
  })),
});
