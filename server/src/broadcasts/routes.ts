import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { AppContext } from '../lib/context';
import { actorOf } from '../lib/actor';
import { pauseBroadcast, startBroadcast } from './service';

const s = initServer();

export const broadcastRoutes = (ctx: AppContext) =>
  s.router(contract.broadcast, {
    start: async ({ req, params }) => ({
      status: 200,
      body: await startBroadcast(ctx, req.em, actorOf(req), params.id),
    }),
    pause: async ({ req, params }) => ({
      status: 200,
      body: await pauseBroadcast(ctx, req.em, actorOf(req), params.id),
    }),
  });
