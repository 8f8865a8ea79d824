import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import { actorOf } from '../lib/actor';
import { appendPhase, extendPhase, updatePhase } from './service';

const s = initServer();

export const phasesRoutes = () =>
  s.router(contract.phases, {
    append: async ({ req, params, body }) => ({
      status: 201,
      body: await appendPhase(req.em, actorOf(req), params.id, body),
    }),
    update: async ({ req, params, body }) => ({
      status: 200,
      body: await updatePhase(req.em, actorOf(req), params.id, body),
    }),
    extend: async ({ req, params, body }) => ({
      status: 200,
      body: await extendPhase(req.em, actorOf(req), params.id, body.seconds),
    }),
  });
