import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { actorOf } from '../lib/actor';
import type { AppContext } from '../lib/context';
import { exportRegistrations } from './export';
import { cancelByToken, registrationCalendar } from './registrant-service';
import { approveRegistration, cancelRegistration, getRegistration, listRegistrations } from './service';
import { getSettings, updateSettings } from './settings';

const s = initServer();

export const registrationsRoutes = (ctx: AppContext) =>
  s.router(contract.registrations, {
    getSettings: async ({ req, params }) => ({
      status: 200,
      body: await getSettings(req.em, actorOf(req), params.id),
    }),
    updateSettings: async ({ req, params, body }) => ({
      status: 200,
      body: await updateSettings(req.em, actorOf(req), params.id, body),
    }),
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listRegistrations(req.em, actorOf(req as unknown as Request), params.id, query),
    }),
    export: async ({ req, res, params, query }) => {
      const body = await exportRegistrations(req.em, actorOf(req), params.id, query.status);
      res.setHeader('content-disposition', `attachment; filename="registrations-${params.id}.csv"`);
      return { status: 200, body };
    },
    get: async ({ req, params }) => ({
      status: 200,
      body: await getRegistration(req.em, actorOf(req), params.id, params.registrationId),
    }),
    approve: async ({ req, params }) => ({
      status: 200,
      body: await approveRegistration(ctx, req.em, actorOf(req), params.id, params.registrationId),
    }),
    cancel: async ({ req, params }) => ({
      status: 200,
      body: await cancelRegistration(ctx, req.em, actorOf(req), params.id, params.registrationId),
    }),
  });

export const registrantRoutes = (ctx: AppContext) =>
  s.router(contract.registrant, {
    cancel: async ({ req, params, body }) => ({
      status: 200,
      body: await cancelByToken(ctx, req.em, params.id, body.token),
    }),
    calendar: async ({ req, res, params }) => {
      const body = await registrationCalendar(ctx, req.em, params.id);
      res.setHeader('content-disposition', 'attachment; filename="invite.ics"');
      return { status: 200, body };
    },
  });
