import type { WebhookEventType } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type SqlTx, sql } from '../db/sql';
import type { Actor } from '../lib/actor';
import { cursorParts, decodeCursor, encodeCursor } from '../lib/cursor';
import type { RecordedDomainEvent } from '../lib/domain-events';
import { notFound, problem } from '../lib/problem';
import { webhookBody } from './payload';
import { addJobsSql } from './queue';

/** How far back the feed and redeliveries reach. */
export const eventLogDays = 30;
const maxPage = 100;
/** One redelivery call queues at most this many deliveries, written in chunks of `chunk`. */
export const maxRedeliveries = 100_000;
const chunk = 2000;

interface LogRow {
  id: string;
  seq: string;
  type: WebhookEventType;
  workspace_id: string;
  event_id: string;
  payload: Record<string, unknown>;
  occurred_at: Date;
}

const recorded = (r: LogRow): RecordedDomainEvent => ({
  id: r.id,
  sequence: Number(r.seq),
  type: r.type,
  workspaceId: r.workspace_id,
  eventId: r.event_id,
  occurredAt: new Date(r.occurred_at),
  data: r.payload,
});

const logColumns = 'id, seq, type, workspace_id, event_id, payload, occurred_at';
const recent = `occurred_at > now() - interval '${eventLogDays} days'`;

/**
 * The workspace's notifications in sequence order: the bodies webhooks deliver (`webhookBody`), so a
 * receiver handles the feed and deliveries with the same code. The sequence has no gaps (see
 * lib/domain-events.ts), so paging `after` the last number seen misses nothing.
 */
export async function listEventLog(
  em: EntityManager,
  actor: Actor,
  input: { after?: number; cursor?: string; limit?: number },
) {
  const limit = input.limit ?? maxPage;
  const after = input.cursor
    ? Number(decodeCursor(input.cursor, [cursorParts.integer])[0])
    : (input.after ?? 0);
  const rows = await sql<LogRow>(
    em,
    `select ${logColumns} from domain_event
      where workspace_id = ? and seq > ? and ${recent}
      order by seq limit ?`,
    [actor.workspaceId, after, limit + 1],
  );
  const page = rows.slice(0, limit);
  return {
    events: page.map((r) => JSON.parse(webhookBody(recorded(r)))),
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.seq) : null,
  };
}

export interface RedeliveryRange {
  fromSequence?: number;
  toSequence?: number;
  from?: string;
  to?: string;
}

/**
 * Queues a new delivery to one endpoint of every notification in the range that the endpoint takes,
 * in sequence order, through the fair queue (`addJobsSql`: a workspace's backlog waits behind the
 * others'). Written in chunks, each one statement, in the caller's transaction.
 */
export async function redeliver(em: EntityManager, actor: Actor, endpointId: string, range: RedeliveryRange) {
  return em.transactional(async (tx) => {
    const [endpoint] = await sql<{ enabled: boolean; event_types: string[]; event_ids: string[] }>(
      tx,
      'select enabled, event_types, event_ids from webhook_endpoint where id = ? and workspace_id = ?',
      [endpointId, actor.workspaceId],
    );
    if (!endpoint) throw notFound('Webhook endpoint');
    if (!endpoint.enabled)
      throw problem('invalid_state', 'The endpoint is disabled; enable it before redelivering');
    let after = Math.max(0, (range.fromSequence ?? 1) - 1);
    let queued = 0;
    while (queued < maxRedeliveries) {
      const rows = await sql<LogRow>(
        tx,
        `select ${logColumns} from domain_event
          where workspace_id = ? and seq > ? and seq <= ? and ${recent}
            and occurred_at >= coalesce(?::timestamptz, '-infinity') and occurred_at < coalesce(?::timestamptz, 'infinity')
            and (?::jsonb = '[]'::jsonb or ?::jsonb @> to_jsonb(type))
            and (?::jsonb = '[]'::jsonb or ?::jsonb @> to_jsonb(event_id::text))
          order by seq limit ?`,
        [
          actor.workspaceId,
          after,
          range.toSequence ?? Number.MAX_SAFE_INTEGER,
          range.from ?? null,
          range.to ?? null,
          JSON.stringify(endpoint.event_types),
          JSON.stringify(endpoint.event_types),
          JSON.stringify(endpoint.event_ids),
          JSON.stringify(endpoint.event_ids),
          Math.min(chunk, maxRedeliveries - queued),
        ],
      );
      if (!rows.length) break;
      queued += await queueDeliveries(tx, endpointId, actor.workspaceId, rows.map(recorded));
      after = Number(rows[rows.length - 1]!.seq);
    }
    return { queued };
  });
}

async function queueDeliveries(
  tx: SqlTx,
  endpointId: string,
  workspaceId: string,
  events: RecordedDomainEvent[],
) {
  const [row] = await sql<{ n: string }>(
    tx,
    `with d as (
       insert into webhook_delivery (id, endpoint_id, workspace_id, webhook_event_id, event_type, body, status, next_attempt_at)
       select gen_random_uuid(), ?, ?, x.id, x.type, x.body, 'pending', now()
         from jsonb_to_recordset(?::jsonb) as x(id uuid, type text, body text)
       returning id, workspace_id
     )
     select (select count(*) from d) as n, (select count(*) from ${addJobsSql('select id, workspace_id from d')}) as queued`,
    [
      endpointId,
      workspaceId,
      JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, body: webhookBody(e) }))),
    ],
  );
  return Number(row!.n);
}
