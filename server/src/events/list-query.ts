import type { eventListSorts } from '@gathercast/contract';
import { jsonPageQuery } from '../db/json-rows';
import { eventJsonFields } from './event-json';

export type EventSort = (typeof eventListSorts)[number];

/** Which filters a page applies and whether it continues after a cursor: one statement per combination. */
export interface EventListSpec {
  sort: EventSort;
  status: boolean;
  visibility: boolean;
  scheduledFrom: boolean;
  scheduledTo: boolean;
  after: boolean;
}

/** Unscheduled events sort after every scheduled one (the latest storable instant is 9999-12-31T23:59:59.999Z). */
const sortKeys = {
  createdAt: 'created_at',
  scheduledAt: `coalesce(scheduled_at, '9999-12-31 23:59:59.999999+00'::timestamptz)`,
};

/**
 * The statement behind GET /v1/events: a workspace's events in `sort` order (ties by id), rendered as
 * JSON by PostgreSQL; the cursor parts of the page's last row come with it. Parameters: $1 workspace
 * id, $2 page size, then each filter the spec applies in the order status, visibility, scheduledFrom,
 * scheduledTo, then after a cursor its sort key (with microseconds) and id.
 */
export function eventListStatement(spec: EventListSpec) {
  const desc = spec.sort.startsWith('-');
  const key = sortKeys[spec.sort.replace('-', '') as keyof typeof sortKeys];
  const where = ['workspace_id = $1'];
  let n = 2;
  if (spec.status) where.push(`status = $${++n}`);
  if (spec.visibility) where.push(`visibility = $${++n}`);
  if (spec.scheduledFrom) where.push(`scheduled_at >= $${++n}::timestamptz`);
  if (spec.scheduledTo) where.push(`scheduled_at < $${++n}::timestamptz`);
  if (spec.after) where.push(`(${key}, id) ${desc ? '<' : '>'} ($${++n}::timestamptz, $${++n}::uuid)`);
  const dir = desc ? 'desc' : 'asc';
  return jsonPageQuery(eventJsonFields, {
    from: 'event',
    where: where.join(' and '),
    orderBy: `${key} ${dir}, id ${dir}`,
    limit: '$2',
    next: { at: `to_char(${key} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, id: 'id' },
  });
}

/** The default listing (newest first, no filters), as the events bench runs it. */
export const eventListQuery = (afterCursor: boolean) =>
  eventListStatement({
    sort: '-createdAt',
    status: false,
    visibility: false,
    scheduledFrom: false,
    scheduledTo: false,
    after: afterCursor,
  });
