import { jsonPageQuery } from '../db/json-rows';
import { eventJsonFields } from './event-json';

/**
 * The statement behind GET /v1/events: a workspace's events newest first (ties by id), rendered as
 * JSON by PostgreSQL; the cursor parts of the page's last row come with it. Parameters: $1 workspace
 * id, $2 page size, and after a cursor $3 createdAt (with microseconds) and $4 id.
 */
export const eventListQuery = (afterCursor: boolean) =>
  jsonPageQuery(eventJsonFields, {
    from: 'event',
    where: `workspace_id = $1${afterCursor ? ' and (created_at, id) < ($3::timestamptz, $4::uuid)' : ''}`,
    orderBy: 'created_at desc, id desc',
    limit: '$2',
    next: { at: `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, id: 'id' },
  });
