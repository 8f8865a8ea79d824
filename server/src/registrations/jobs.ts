import type { AppContext } from '../lib/context';
import { Periodic } from '../lib/periodic';
import { sendQueuedEmails } from './outbox';
import { claimDueReminders } from './reminders';

/** Each process: claim due reminders, then send queued registrant emails. */
export const registrantJobs = (ctx: AppContext) =>
  new Periodic(
    'registrant emails',
    ctx.config.scheduledJobsIntervalMs,
    async () => {
      await claimDueReminders(ctx);
      await sendQueuedEmails(ctx);
    },
    ctx.logger,
  );
