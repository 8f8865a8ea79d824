import type { Registration, RegistrationStatus } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type SqlTx, sql } from '../db/sql';
import { timeOrderedPage } from '../db/time-ordered-page';
import { eventOfWorkspace, lockEvent } from '../events/locks';
import type { Actor } from '../lib/actor';
import type { AppContext } from '../lib/context';
import { notFound, problem } from '../lib/problem';
import { queueEmails, recordUpdated } from './changes';
import { type RegistrationRow, registrationColumns, toRegistration } from './rows';
import { admission, freeSeat, type SeatedEvent, takeSeat } from './seats';
import { readSettings } from './settings';

type Bus = Pick<AppContext, 'bus'>;

/** Oldest first; the cursor is the last row's (createdAt, id). */
export async function listRegistrations(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: { cursor?: string; limit?: number; status?: RegistrationStatus },
): Promise<{ registrations: Registration[]; nextCursor: string | null }> {
  await eventOfWorkspace(em, actor, eventId);
  const page = await timeOrderedPage<RegistrationRow>(
    em,
    {
      select: `select ${registrationColumns} from registration r
                where r.event_id = ? and (?::text is null or r.status = ?)`,
      params: [eventId, input.status ?? null, input.status ?? null],
    },
    input,
  );
  return { registrations: page.rows.map(toRegistration), nextCursor: page.nextCursor };
}

async function readRegistration(db: SqlTx, eventId: string, registrationId: string, lock = false) {
  const [row] = await sql<RegistrationRow>(
    db,
    `select ${registrationColumns} from registration r where r.id = ? and r.event_id = ?${lock ? ' for update' : ''}`,
    [registrationId, eventId],
  );
  if (!row) throw notFound('Registration');
  return row;
}

export async function getRegistration(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  registrationId: string,
): Promise<Registration> {
  await eventOfWorkspace(em, actor, eventId);
  return toRegistration(await readRegistration(em, eventId, registrationId));
}

/** pending_approval → registered (a seat), or the waiting list at capacity when the event keeps one. */
export function approveRegistration(
  ctx: Bus,
  em: EntityManager,
  actor: Actor,
  eventId: string,
  registrationId: string,
): Promise<Registration> {
  return em.transactional(async (tx) => {
    const event: SeatedEvent = await lockEvent(tx, actor, eventId);
    const reg = await readRegistration(tx, eventId, registrationId);
    if (reg.status !== 'pending_approval')
      throw problem(
        'invalid_state',
        `Only a pending registration can be approved; this one is ${reg.status}`,
      );
    const status = admission(event, await readSettings(tx, eventId));
    await sql(
      tx,
      `update registration set status = ?, approved_at = now(), updated_at = now(),
         waitlisted_at = case when ? = 'waitlisted' then clock_timestamp() end where id = ?`,
      [status, status, registrationId],
    );
    if (status === 'registered') await takeSeat(tx, eventId);
    await recordUpdated(
      ctx,
      tx,
      [{ id: reg.id, workspaceId: reg.workspace_id, eventId, status }],
      status === 'registered' ? 'approved' : 'waitlisted',
    );
    await queueEmails(tx, status === 'registered' ? 'admitted' : 'waitlisted', [reg.id]);
    return toRegistration(await readRegistration(tx, eventId, registrationId));
  });
}

/**
 * Cancels a registration under the event row lock; a freed seat goes to the waiting list in the same
 * transaction. Canceling a canceled registration answers it unchanged; an attended one cannot be.
 */
export async function cancelLocked(ctx: Bus, tx: SqlTx, reg: RegistrationRow): Promise<void> {
  if (reg.status === 'canceled') return;
  if (reg.status === 'attended')
    throw problem('invalid_state', 'An attended registration cannot be canceled');
  await sql(
    tx,
    `update registration set status = 'canceled', canceled_at = now(), waitlisted_at = null, updated_at = now() where id = ?`,
    [reg.id],
  );
  await recordUpdated(
    ctx,
    tx,
    [{ id: reg.id, workspaceId: reg.workspace_id, eventId: reg.event_id, status: 'canceled' }],
    'canceled',
  );
  await queueEmails(tx, 'canceled', [reg.id]);
  if (reg.status === 'registered') await freeSeat(ctx, tx, reg.event_id);
}

export function cancelRegistration(
  ctx: Bus,
  em: EntityManager,
  actor: Actor,
  eventId: string,
  registrationId: string,
): Promise<Registration> {
  return em.transactional(async (tx) => {
    await lockEvent(tx, actor, eventId);
    await cancelLocked(ctx, tx, await readRegistration(tx, eventId, registrationId));
    return toRegistration(await readRegistration(tx, eventId, registrationId));
  });
}
