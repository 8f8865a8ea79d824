import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../lib/problem';
import type { Actor } from '../lib/actor';
import { type EventRow, eventColumns, type PhaseRow, phaseColumns } from './mapping';
import { sql } from '../db/sql';

/**
 * Locks the event row (`select … for update`) for the rest of the transaction: every lifecycle
 * transition, phase change and registration of one event is serialized on it. Another workspace's
 * event is not found.
 */
export async function lockEvent(
  tx: EntityManager,
  actor: Pick<Actor, 'workspaceId'>,
  eventId: string,
): Promise<EventRow> {
  const rows = await sql<EventRow>(
    tx,
    `select ${eventColumns} from event where id = ? and workspace_id = ? for update`,
    [eventId, actor.workspaceId],
  );
  if (!rows[0]) throw notFound('Event');
  return rows[0];
}

export async function findEvent(
  em: EntityManager,
  actor: Pick<Actor, 'workspaceId'>,
  eventId: string,
): Promise<EventRow> {
  const rows = await sql<EventRow>(
    em,
    `select ${eventColumns} from event where id = ? and workspace_id = ?`,
    [eventId, actor.workspaceId],
  );
  if (!rows[0]) throw notFound('Event');
  return rows[0];
}

export const phasesOf = (em: EntityManager, eventId: string) =>
  sql<PhaseRow>(em, `select ${phaseColumns} from phase where event_id = ? order by position`, [eventId]);
