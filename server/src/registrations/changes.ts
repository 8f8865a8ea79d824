import type { RegistrationStatus } from '@gathercast/contract';
import { type SqlTx, sql } from '../db/sql';
import type { AppContext } from '../lib/context';

type Bus = Pick<AppContext, 'bus'>;
export type RegistrationChange = 'approved' | 'waitlisted' | 'promoted' | 'canceled';
export type RegistrantEmailKind = 'reminder' | 'updated' | 'canceled' | 'admitted' | 'waitlisted';

interface Changed {
  id: string;
  workspaceId: string;
  eventId: string;
  status: RegistrationStatus;
}

/** registration.created, in the registration's transaction. */
export const recordCreated = (ctx: Bus, tx: SqlTx, r: Changed) =>
  ctx.bus.record(tx, {
    type: 'registration.created',
    workspaceId: r.workspaceId,
    eventId: r.eventId,
    data: { registrationId: r.id, status: r.status },
  });

/** registration.updated for each registration changed, in the change's transaction. */
export const recordUpdated = (ctx: Bus, tx: SqlTx, rs: Changed[], change: RegistrationChange) =>
  ctx.bus.recordMany(
    tx,
    rs.map((r) => ({
      type: 'registration.updated' as const,
      workspaceId: r.workspaceId,
      eventId: r.eventId,
      data: { registrationId: r.id, status: r.status, change },
    })),
  );

/**
 * Queues registrant emails in the transaction of the change that causes them; `outbox.ts` sends each
 * once after the commit, rendered from the state then (so an update never precedes its change).
 */
export async function queueEmails(
  tx: SqlTx,
  kind: RegistrantEmailKind,
  registrationIds: string[],
  minutesBefore: number | null = null,
): Promise<void> {
  if (!registrationIds.length) return;
  await sql(
    tx,
    `insert into registrant_email (id, workspace_id, event_id, registration_id, kind, minutes_before)
     select gen_random_uuid(), r.workspace_id, r.event_id, r.id, ?, ?::integer
       from registration r where r.id = any(?::uuid[])`,
    [kind, minutesBefore, `{${registrationIds.join(',')}}`],
  );
}

/** Queues an email to every seat holder of an event (a reschedule, a cancellation, a reminder). */
export async function queueEmailsToSeatHolders(
  tx: SqlTx,
  kind: RegistrantEmailKind,
  eventId: string,
  minutesBefore: number | null = null,
): Promise<void> {
  await sql(
    tx,
    `insert into registrant_email (id, workspace_id, event_id, registration_id, kind, minutes_before)
     select gen_random_uuid(), r.workspace_id, r.event_id, r.id, ?, ?::integer
       from registration r where r.event_id = ? and r.status in ('registered', 'attended')`,
    [kind, minutesBefore, eventId],
  );
}
