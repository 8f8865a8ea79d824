import type { EntityManager } from '@mikro-orm/postgresql';
import { type EventRow, eventColumns } from '../events/mapping';
import { sql } from '../db/sql';
import type { RequestAuth } from '../lib/actor';

/**
 * Whether the caller holds a session of the owning workspace: an account session of a member, or
 * a workspace session minted for it. Only such callers see private events on public surfaces.
 */
export async function hasWorkspaceSession(
  em: EntityManager,
  auth: RequestAuth,
  workspaceId: string,
): Promise<boolean> {
  const session = auth.session;
  if (!session) return false;
  if (session.kind === 'workspace') return session.workspaceId === workspaceId;
  if (!auth.accountId) return false;
  const rows = await sql(em, 'select 1 from workspace_member where workspace_id = ? and account_id = ?', [
    workspaceId,
    auth.accountId,
  ]);
  return rows.length > 0;
}

/** A published event as public surfaces see it: drafts never, private ones only with a workspace session. */
export async function findPublicEvent(
  em: EntityManager,
  auth: RequestAuth,
  eventId: string,
  lock = false,
): Promise<{ event: EventRow; privateViewer: boolean } | null> {
  const rows = await sql<EventRow>(
    em,
    `select ${eventColumns} from event where id = ?${lock ? ' for update' : ''}`,
    [eventId],
  );
  const event = rows[0];
  if (!event || event.status === 'draft') return null;
  if (event.visibility !== 'private') return { event, privateViewer: false };
  return (await hasWorkspaceSession(em, auth, event.workspace_id)) ? { event, privateViewer: true } : null;
}
