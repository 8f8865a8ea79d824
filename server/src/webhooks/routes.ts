import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { actorOf } from '../lib/actor';
import { listDeliveries, retryDelivery } from './deliveries-service';
import type { AppContext } from '../lib/context';
import { endpointsService } from './endpoints-service';
import { listEventLog, redeliver } from './event-log';
import { webhookSettings } from './settings';

const s = initServer();

/** Thin handlers: HTTP in, service call, plain objects out. Registered in server/src/app/routes.ts. */
export const webhooksRoutes = (ctx: AppContext) => {
  const endpoints = endpointsService(webhookSettings(ctx.config));
  return s.router(contract.webhooks, {
    create: async ({ req, body }) => ({
      status: 201,
      body: await endpoints.create(req.em, actorOf(req), body),
    }),
    list: async ({ req, query }) => ({ status: 200, body: await endpoints.list(req.em, actorOf(req), query) }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await endpoints.get(req.em, actorOf(req), params.id),
    }),
    update: async ({ req, params, body }) => ({
      status: 200,
      body: await endpoints.update(req.em, actorOf(req), params.id, body),
    }),
    delete: async ({ req, params }) => {
      await endpoints.remove(req.em, actorOf(req), params.id);
      return { status: 204, body: undefined };
    },
    rotateSecret: async ({ req, params }) => ({
      status: 200,
      body: await endpoints.rotateSecret(req.em, actorOf(req), params.id),
    }),
    test: async ({ req, params, body }) => ({
      status: 202,
      body: await endpoints.sendTest(req.em, actorOf(req), params.id, body?.type),
    }),
    listDeliveries: async ({ req, params, query }) => ({
      status: 200,
      // ts-rest types req.query as the parsed query, which express's Request type does not accept.
      body: await listDeliveries(req.em, actorOf(req as unknown as Request), {
        endpointId: params.id,
        ...query,
      }),
    }),
    retryDelivery: async ({ req, params }) => ({
      status: 202,
      body: await retryDelivery(req.em, actorOf(req), {
        endpointId: params.id,
        deliveryId: params.deliveryId,
      }),
    }),
    redeliver: async ({ req, params, body }) => ({
      status: 202,
      body: await redeliver(req.em, actorOf(req), params.id, body),
    }),
  });
};

export const eventLogRoutes = (_ctx: AppContext) =>
  s.router(contract.eventLog, {
    list: async ({ req, query }) => ({
      status: 200,
      body: await listEventLog(req.em, actorOf(req as unknown as Request), query),
    }),
  });
