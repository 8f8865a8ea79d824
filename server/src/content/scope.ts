import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import type { Actor } from '../lib/actor';
import { ofWorkspace } from '../lib/tenancy';
import { type RecordingRow, recordingColumns } from './rows';

/**
 * Workspace scoping of content: every row belongs to an event (`eventOfWorkspace` in `events/locks.ts`),
 * and the event to a workspace. Inside a transaction the rows are held with `for key share`, so a
 * concurrent delete of the event (or recording) waits instead of leaving an insert with a dangling
 * foreign key, while ordinary event updates are not blocked.
 */
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
  return ofWorkspace(row, 'Recording');
}
