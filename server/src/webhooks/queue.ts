import { type SqlTx, sql } from '../db/sql';
import type { RecordedDomainEvent } from '../lib/domain-events';
import { webhookBody } from './payload';

/** The graphile-worker task that makes one attempt of one delivery. */
export const deliverTask = 'webhook_deliver';
/** graphile-worker only retries a job whose task threw (a database hiccup), never a failed delivery. */
export const jobMaxAttempts = 25;

/**
 * Fair order across workspaces. graphile-worker fetches due jobs by `priority` (lower first), then
 * `run_at`. An automatic job (fan-out, scheduled retry, re-queue) gets as priority the number of
 * deliveries its workspace already has pending (counted up to `rankCap`; within one bulk enqueue,
 * plus its rank in it): a workspace with a backlog waits behind one that has little or nothing
 * pending, so one workspace's backlog or failing endpoint cannot hold back everyone else's. A test
 * send or a manual retry gets `manualJobPriority`, ahead of every automatic job. Priorities only
 * order jobs that are due: retry times are never brought forward.
 */
export const manualJobPriority = -1;
const rankCap = 1000;

/** SQL: the pending deliveries of the workspace `workspaceExpr`, counted up to rankCap (index-only). */
export const pendingRankSql = (workspaceExpr: string) =>
  `(select count(*) from (select 1 from webhook_delivery p where p.workspace_id = ${workspaceExpr} and p.status = 'pending' limit ${rankCap}) p)::int`;

/**
 * SQL that enqueues the attempt job of a delivery. The job key is the delivery id, so re-adding
 * replaces a waiting job instead of duplicating it (and unkeys a job locked by a dead process).
 */
export const addJobSql = (idExpr: string, runAtExpr = 'now()', priorityExpr = '0') =>
  `graphile_worker.add_job('${deliverTask}', json_build_object('id', ${idExpr}), run_at := ${runAtExpr}, max_attempts := ${jobMaxAttempts}, job_key := ${idExpr}, priority := ${priorityExpr})`;

/**
 * SQL that enqueues the attempt jobs of every delivery in the set `deliveriesQuery` (a query
 * returning `id` and `workspace_id` columns) with ONE call of graphile-worker's bulk `add_jobs`.
 * Calling `add_job` per row costs a function call and a NOTIFY per delivery (each with a random
 * payload, so PostgreSQL cannot fold them): about 1 ms per row on a busy machine and one wake-up of
 * every worker per row. Each workspace's pending count is read once per statement: `w` is
 * materialized, because inlined into the join the planner re-ran the count for every delivery
 * (a count of up to `rankCap` index entries per row: half the cost of a join storm's fan-out).
 */
export const addJobsSql = (deliveriesQuery: string) =>
  `graphile_worker.add_jobs(array(
     with q as (
       select q0.id, q0.workspace_id, row_number() over (partition by q0.workspace_id order by q0.id) - 1 as rank
       from (${deliveriesQuery}) q0
     ),
     w as materialized (select ws.workspace_id, ${pendingRankSql('ws.workspace_id')} as pending from (select distinct workspace_id from q) ws)
     select row('${deliverTask}', json_build_object('id', q.id::text), null, now(), ${jobMaxAttempts}, q.id::text,
       least(${rankCap}, w.pending + q.rank)::int, null)::graphile_worker.job_spec
     from q join w on w.workspace_id = q.workspace_id
   ))`;

/**
 * The outbox fan-out, run inside the transaction of the change: one delivery per enabled endpoint of
 * the workspace that takes this type, and one job per delivery, in a single statement. Commits and
 * rolls back with the change.
 */
export function fanOut(tx: SqlTx, event: RecordedDomainEvent): Promise<number> {
  return fanOutMany(tx, [event]);
}

/** The fan-out of several events recorded together: still one statement, whatever their number. */
export async function fanOutMany(tx: SqlTx, events: RecordedDomainEvent[]): Promise<number> {
  if (!events.length) return 0;
  const rows = await sql(
    tx,
    `with ev as (
       select * from jsonb_to_recordset(?::jsonb) as x(id uuid, type text, body text, workspace_id uuid, event_id text)
     ),
     d as (
       insert into webhook_delivery (id, endpoint_id, workspace_id, webhook_event_id, event_type, body, status, next_attempt_at)
       select gen_random_uuid(), e.id, e.workspace_id, ev.id, ev.type, ev.body, 'pending', now()
       from ev join webhook_endpoint e on e.workspace_id = ev.workspace_id and e.enabled
         and (e.event_types = '[]'::jsonb or e.event_types @> to_jsonb(ev.type))
         and (e.event_ids = '[]'::jsonb or e.event_ids @> to_jsonb(ev.event_id))
       returning id, workspace_id
     )
     select (select count(*) from d) as n, (select count(*) from ${addJobsSql('select id, workspace_id from d')} where exists (select 1 from d)) as queued`,
    [
      JSON.stringify(
        events.map((e) => ({
          id: e.id,
          type: e.type,
          body: webhookBody(e),
          workspace_id: e.workspaceId,
          event_id: e.eventId,
        })),
      ),
    ],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Inserts one delivery for one endpoint (test sends) and enqueues its job. */
export async function insertDelivery(
  tx: SqlTx,
  endpointId: string,
  event: RecordedDomainEvent,
): Promise<string> {
  const rows = await sql(
    tx,
    `with d as (
       insert into webhook_delivery (id, endpoint_id, workspace_id, webhook_event_id, event_type, body, status, next_attempt_at)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, 'pending', now())
       returning id
     )
     select d.id, ${addJobSql('d.id::text', 'now()', String(manualJobPriority))} is not null as queued from d`,
    [endpointId, event.workspaceId, event.id, event.type, webhookBody(event)],
  );
  return rows[0]!.id as string;
}

/** Enqueues (or moves to now) the attempt job of an existing delivery, ahead of automatic jobs (a manual retry). */
export async function enqueueNow(tx: SqlTx, deliveryId: string): Promise<void> {
  await sql(tx, `select ${addJobSql('?::text', 'now()', String(manualJobPriority))} is not null as queued`, [
    deliveryId,
    deliveryId,
  ]);
}

/** Drops the waiting jobs of an endpoint's pending deliveries (the rows themselves go with the endpoint). */
export async function dropQueuedJobs(tx: SqlTx, endpointId: string): Promise<void> {
  await sql(
    tx,
    `select count(graphile_worker.remove_job(d.id::text)) as n from webhook_delivery d where d.endpoint_id = ? and d.status = 'pending'`,
    [endpointId],
  );
}
