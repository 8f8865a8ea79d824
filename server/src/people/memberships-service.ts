import { randomUUID } from 'node:crypto';
import type { EventRole, Modality } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockEvent } from '../events/locks';
import { assignableRoles } from '../events/roles';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { iso, sql } from '../db/sql';
import { problem } from '../lib/problem';
import type { Actor } from '../lib/actor';
import { ofWorkspace } from '../lib/tenancy';

export interface Membership {
  id: string;
  eventId: string;
  userId: string;
  role: EventRole;
  createdAt: string;
}

interface Row {
  id: string;
  event_id: string;
  user_id: string;
  role: EventRole;
  created_at: Date;
}

const toMembership = (r: Row): Membership => ({
  id: r.id,
  eventId: r.event_id,
  userId: r.user_id,
  role: r.role,
  createdAt: iso(r.created_at)!,
});

async function eventModalities(em: EntityManager, eventId: string): Promise<Modality[]> {
  const rows = await sql<{ modality: Modality }>(
    em,
    'select distinct modality from phase where event_id = ?',
    [eventId],
  );
  return rows.map((r) => r.modality);
}

/**
 * Gives a workspace user a role on the event. The role must be one the event's phases accept
 * (400 role_not_on_event listing them). A user holds one role per event: giving another replaces it.
 */
export async function createMembership(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: { userId: string; role: EventRole },
): Promise<Membership> {
  return em.transactional(async (tx) => {
    await lockEvent(tx, actor, eventId);
    const user = await sql(tx, 'select 1 from app_user where id = ? and workspace_id = ?', [
      input.userId,
      actor.workspaceId,
    ]);
    ofWorkspace(user[0], 'User');
    const accepted = assignableRoles(await eventModalities(tx, eventId));
    if (!accepted.includes(input.role)) {
      throw problem(
        'role_not_on_event',
        `This event has no place for ${input.role}; accepted roles: ${accepted.join(', ')}`,
        {
          acceptedRoles: accepted,
        },
      );
    }
    const rows = await sql<Row>(
      tx,
      `insert into event_membership (id, event_id, user_id, role) values (?, ?, ?, ?)
       on conflict (event_id, user_id) do update set role = excluded.role
       returning id, event_id, user_id, role, created_at`,
      [randomUUID(), eventId, input.userId, input.role],
    );
    return toMembership(rows[0]!);
  });
}

async function eventExists(em: EntityManager, actor: Actor, eventId: string): Promise<void> {
  const [row] = await sql(em, 'select 1 from event where id = ? and workspace_id = ?', [eventId, actor.workspaceId]);
  ofWorkspace(row, 'Event');
}

export async function listMemberships(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: PageInput,
): Promise<{ memberships: Membership[]; nextCursor: string | null }> {
  await eventExists(em, actor, eventId);
  const page = await timeOrderedPage<Row>(
    em,
    { select: 'select id, event_id, user_id, role, created_at from event_membership where event_id = ?', params: [eventId] },
    input,
  );
  return { memberships: page.rows.map(toMembership), nextCursor: page.nextCursor };
}

export async function getMembership(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  membershipId: string,
): Promise<Membership> {
  const rows = await sql<Row>(
    em,
    `select m.id, m.event_id, m.user_id, m.role, m.created_at from event_membership m
       join event e on e.id = m.event_id
      where m.id = ? and m.event_id = ? and e.workspace_id = ?`,
    [membershipId, eventId, actor.workspaceId],
  );
  return toMembership(ofWorkspace(rows[0], 'Membership'));
}

export async function deleteMembership(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  membershipId: string,
): Promise<void> {
  const rows = await sql(
    em,
    `delete from event_membership m using event e
      where e.id = m.event_id and m.id = ? and m.event_id = ? and e.workspace_id = ? returning m.id`,
    [membershipId, eventId, actor.workspaceId],
  );
  ofWorkspace(rows[0], 'Membership');
}
