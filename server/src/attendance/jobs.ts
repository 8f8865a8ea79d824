import type { AppContext } from '../lib/context';
import { Periodic } from '../lib/periodic';
import { buildDueReports } from './report';

/** Each process: build the attendance reports of events that ended (within one interval of the end). */
export const attendanceJobs = (ctx: AppContext) =>
  new Periodic(
    'attendance reports',
    ctx.config.scheduledJobsIntervalMs,
    () => buildDueReports(ctx),
    ctx.logger,
  );
