import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import type { RecordedDomainEvent } from '../lib/domain-events';
import { webhookBody } from './payload';

/** The graphile-worker task that makes one attempt of one delivery. */
export const deliverTask = 'webhook_deliver';
/** graphile-worker only retries a job whose task threw (a database hiccup), never a failed delivery. */
export const jobMaxAttempts = 25;

/**
 * SQL that enqueues the attempt job of a delivery. The job key is the delivery id, so re-adding
 * replaces a waiting job instead of duplicating it (and unkeys a job locked by a dead process).
 */
export const addJobSql = (idExpr: string, runAtExpr = 'now()') =>
  `graphile_worker.add_job('${deliverTask}', json_build_object('id', ${idExpr}), run_at := ${runAtExpr}, max_attempts := ${jobMaxAttempts}, job_key := ${idExpr})`;

/**
 * SQL that enqueues the attempt jobs of every delivery id in the set `idsQuery` (a query returning
 * an `id` column) with ONE call of graphile-worker's bulk `add_jobs`. Calling `add_job` per row
 * costs a function call and a NOTIFY per delivery (each with a random payload, so PostgreSQL cannot
 * fold them): about 1 ms per row on a busy machine and one wake-up of every worker per row.
 */
export const addJobsSql = (idsQuery: string) =>
  `graphile_worker.add_jobs(array(
     select row('${deliverTask}', json_build_object('id', q.id::text), null, now(), ${jobMaxAttempts}, q.id::text, null, null)::graphile_worker.job_spec
     from (${idsQuery}) q
   ))`;

/**
 * The outbox fan-out, run inside the transaction of the change: one delivery per enabled endpoint of
 * the workspace that takes this type, and one job per delivery, in a single statement. Commits and
 * rolls back with the change.
 */
export async function fanOut(em: EntityManager, event: RecordedDomainEvent): Promise<number> {
  const rows = await sql(
    em,
    `with d as (
       insert into webhook_delivery (id, endpoint_id, workspace_id, webhook_event_id, event_type, body, status, next_attempt_at)
       select gen_random_uuid(), e.id, e.workspace_id, ?, ?, ?, 'pending', now()
       from webhook_endpoint e
       where e.workspace_id = ? and e.enabled
         and (e.event_types = '[]'::jsonb or e.event_types @> to_jsonb(?::text))
       returning id
     )
     select (select count(*) from d) as n, (select count(*) from ${addJobsSql('select id from d')} where exists (select 1 from d)) as queued`,
    [event.id, event.type, webhookBody(event), event.workspaceId, event.type],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Inserts one delivery for one endpoint (test sends) and enqueues its job. */
export async function insertDelivery(
  em: EntityManager,
  endpointId: string,
  event: RecordedDomainEvent,
): Promise<string> {
  const rows = await sql(
    em,
    `with d as (
       insert into webhook_delivery (id, endpoint_id, workspace_id, webhook_event_id, event_type, body, status, next_attempt_at)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, 'pending', now())
       returning id
     )
     select d.id, ${addJobSql('d.id::text')} is not null as queued from d`,
    [endpointId, event.workspaceId, event.id, event.type, webhookBody(event)],
  );
  return rows[0]!.id as string;
}

/** Enqueues (or moves to now) the attempt job of an existing delivery. */
export async function enqueueNow(em: EntityManager, deliveryId: string): Promise<void> {
  await sql(em, `select ${addJobSql('?::text')} is not null as queued`, [deliveryId, deliveryId]);
}

/** Drops the waiting jobs of an endpoint's pending deliveries (the rows themselves go with the endpoint). */
export async function dropQueuedJobs(em: EntityManager, endpointId: string): Promise<void> {
  await sql(
    em,
    `select count(graphile_worker.remove_job(d.id::text)) as n from webhook_delivery d where d.endpoint_id = ? and d.status = 'pending'`,
    [endpointId],
  );
}
