import { withTransaction } from '../db/pool';
import { type SqlTx, sql } from '../db/sql';
import type { AppContext } from '../lib/context';
import { queueEmailsToSeatHolders } from './changes';
import { defaultReminderMinutes } from './settings';

/**
 * Claims the reminders that fell due: one `registration_reminder_run` row per (event, minutes before,
 * start time), inserted with `on conflict do nothing`, so whichever process inserts it queues that
 * reminder's emails in the same transaction, and no other process or later run does again. A new start
 * time (a reschedule) makes its reminders due afresh. When several fall due at once (an event
 * scheduled an hour ahead, a server down for a day), only the nearest one is emailed.
 */
async function claimDue(tx: SqlTx): Promise<void> {
  const claimed = await sql<{ event_id: string; minutes_before: number; nearest: number }>(
    tx,
    `with due as (
       select e.id, e.workspace_id, e.scheduled_at, m.minutes
         from event e
         left join registration_settings s on s.event_id = e.id
         cross join lateral unnest(coalesce(s.reminder_minutes, ?::integer[])) as m(minutes)
        where e.status = 'scheduled' and e.scheduled_at > now() and e.scheduled_at <= now() + interval '30 days'
          and e.scheduled_at - make_interval(mins => m.minutes) <= now()
     ), claimed as (
       insert into registration_reminder_run (event_id, workspace_id, minutes_before, scheduled_at)
       select id, workspace_id, minutes, scheduled_at from due
       on conflict do nothing
       returning event_id, minutes_before, scheduled_at
     )
     select c.event_id, c.minutes_before,
            (select min(d.minutes) from due d where d.id = c.event_id) as nearest
       from claimed c`,
    [`{${defaultReminderMinutes.join(',')}}`],
  );
  for (const c of claimed)
    if (c.minutes_before === c.nearest)
      await queueEmailsToSeatHolders(tx, 'reminder', c.event_id, c.minutes_before);
}

export const claimDueReminders = (ctx: Pick<AppContext, 'pool'>) => withTransaction(ctx.pool, claimDue);
