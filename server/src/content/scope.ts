import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import { notFound } from '../lib/problem';
import type { Actor } from '../lib/actor';
import { type RecordingRow, recordingColumns } from './rows';

/**
 * Workspace scoping of content: every row belongs to an event, and the event to a workspace.
 * Another workspace's event or content is not found. Inside a transaction the rows are held with
 * `for key share`, so a concurrent delete of the event (or recording) waits instead of leaving an
 * insert with a dangling foreign key, while ordinary event updates are not blocked.
 */
export interface EventRef {
  id: string;
  workspace_id: string;
  title: string;
}

export async function eventOfWorkspace(em: EntityManager, actor: Actor, eventId: string, hold = false) {
  const [event] = await sql<EventRef>(
    em,
    `select id, workspace_id, title from event where id = ? and workspace_id = ?${hold ? ' for key share' : ''}`,
    [eventId, actor.workspaceId],
  );
  if (!event) throw notFound('Event');
  return event;
}

export async function recordingOfWorkspace(
  em: EntityManager,
  actor: Actor,
  recordingId: string,
  hold = false,
): Promise<RecordingRow & { workspace_id: string }> {
  const [row] = await sql<RecordingRow & { workspace_id: string }>(
    em,
    `select ${recordingColumns.replace(/(\w+)/g, 'r.$1')}, e.workspace_id
       from recording r join event e on e.id = r.event_id
      where r.id = ? and e.workspace_id = ?${hold ? ' for key share of r, e' : ''}`,
    [recordingId, actor.workspaceId],
  );
  if (!row) throw notFound('Recording');
  return row;
}
