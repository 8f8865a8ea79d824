import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { actorOf } from '../lib/actor';
import type { AppContext } from '../lib/context';
import { advanceEvent, endEventNow, publishEvent, startEvent } from './lifecycle';
import { createEvent, deleteEvent, getEvent, listEvents, updateEvent } from './service';

const s = initServer();

export const eventsRoutes = (ctx: AppContext) =>
  s.router(contract.events, {
    create: async ({ req, body }) => ({
      status: 201,
      // The request itself: its entity manager is forked only if the create needs one.
      body: await createEvent(req, actorOf(req), body, ctx.pool),
    }),
    list: async ({ req, query }) => ({
      status: 200,
      body: (await listEvents(ctx.pool, actorOf(req as unknown as Request), query)).asBody(),
    }),
    get: async ({ req, params }) => ({ status: 200, body: await getEvent(req.em, actorOf(req), params.id) }),
    update: async ({ req, params, body }) => ({
      status: 200,
      body: await updateEvent(ctx, req.em, actorOf(req), params.id, body),
    }),
    delete: async ({ req, params }) => {
      await deleteEvent(ctx, req.em, actorOf(req), params.id);
      return { status: 204, body: undefined };
    },
    publish: async ({ req, params }) => ({
      status: 200,
      body: await publishEvent(ctx, req.em, actorOf(req), params.id),
    }),
    start: async ({ req, params }) => ({
      status: 200,
      body: await startEvent(ctx, req.em, actorOf(req), params.id),
    }),
    advance: async ({ req, params, body }) => ({
      status: 200,
      body: await advanceEvent(ctx, req.em, actorOf(req), params.id, body?.phaseId),
    }),
    end: async ({ req, params }) => ({
      status: 200,
      body: await endEventNow(ctx, req.em, actorOf(req), params.id),
    }),
  });
