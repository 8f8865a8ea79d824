import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { actorOf } from '../lib/actor';
import { attendanceSummary, attendees, attendeesCsv } from './service';

const s = initServer();

export const attendanceRoutes = () =>
  s.router(contract.attendance, {
    summary: async ({ req, params }) => ({
      status: 200,
      body: await attendanceSummary(req.em, actorOf(req), params.id),
    }),
    attendees: async ({ req, params, query }) => ({
      status: 200,
      body: await attendees(req.em, actorOf(req as unknown as Request), params.id, query),
    }),
    export: async ({ req, res, params }) => {
      const body = await attendeesCsv(req.em, actorOf(req), params.id);
      res.setHeader('content-disposition', `attachment; filename="attendance-${params.id}.csv"`);
      return { status: 200, body };
    },
  });
