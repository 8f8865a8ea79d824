import { eventRoles, type EventRole, type Modality } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { assignableRoles } from '../events/roles';
import { problem } from '../lib/problem';
import { sql } from '../db/sql';

/**
 * What an event invite needs from the events domain (table `phase`) beyond the event itself
 * (`eventOfWorkspace` in `events/locks.ts`): the roles its phases accept.
 */

/** 400 role_not_on_event, listing the accepted roles, unless the event's phases have a place for the role. */
export async function assertRoleOnEvent(em: EntityManager, eventId: string, role: string): Promise<EventRole> {
  const phases = await sql<{ modality: Modality }>(em, 'select modality from phase where event_id = ? order by position', [eventId]);
  const accepted = assignableRoles(phases.map((p) => p.modality));
  if (!(eventRoles as readonly string[]).includes(role) || !accepted.includes(role as EventRole)) {
    throw problem('role_not_on_event', `This event has no place for the role "${role}"; accepted roles: ${accepted.join(', ')}`, {
      acceptedRoles: accepted,
    });
  }
  return role as EventRole;
}

/** The event membership an accepted event invite grants to the account's bridged user. */
export async function grantEventMembership(em: EntityManager, eventId: string, userId: string, role: string): Promise<void> {
  await sql(
    em,
    `insert into event_membership (id, event_id, user_id, role) values (gen_random_uuid(), ?, ?, ?)
     on conflict (event_id, user_id) do update set role = excluded.role`,
    [eventId, userId, role],
  );
}
