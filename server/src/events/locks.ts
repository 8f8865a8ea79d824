import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../lib/actor';
import { ofWorkspace } from '../lib/tenancy';
import { type EventRow, eventColumns, type PhaseRow, phaseColumns } from './mapping';
import { sql } from '../db/sql';

/**
 * The workspace's event (the tenancy rule: another workspace's is not found, `lib/tenancy.ts`), the
 * one lookup every domain uses. Inside a transaction, `hold` keeps the row for the rest of it:
 * `update` serializes on the event (see `lockEvent`); `key share` only keeps it from being deleted,
 * so an insert that refers to it cannot be left dangling, while ordinary event updates go on.
 */
export async function eventOfWorkspace(
  em: EntityManager,
  actor: Pick<Actor, 'workspaceId'>,
  eventId: string,
  hold?: 'update' | 'key share',
): Promise<EventRow> {
  const rows = await sql<EventRow>(
    em,
    `select ${eventColumns} from event where id = ? and workspace_id = ?${hold ? ` for ${hold}` : ''}`,
    [eventId, actor.workspaceId],
  );
  return ofWorkspace(rows[0], 'Event');
}

/**
 * Locks the event row (`select … for update`) for the rest of the transaction: every lifecycle
 * transition, phase change and registration of one event is serialized on it.
 */
export const lockEvent = (tx: EntityManager, actor: Pick<Actor, 'workspaceId'>, eventId: string) =>
  eventOfWorkspace(tx, actor, eventId, 'update');

export const phasesOf = (em: EntityManager, eventId: string) =>
  sql<PhaseRow>(em, `select ${phaseColumns} from phase where event_id = ? order by position`, [eventId]);
