import type pg from 'pg';
import { retryOnDeadlock } from '../db/deadlock';
import { Batcher } from '../lib/batcher';
import { addJobSql, manualJobPriority, pendingRankSql } from './queue';
import { sql } from '../db/sql';

/** A delivery leased for one attempt, with what the attempt needs from its endpoint. */
export interface Claimed {
  id: string;
  endpoint_id: string;
  body: string;
  event_type: string;
  webhook_event_id: string;
  attempt_count: number;
  auto_retry: boolean;
  url: string;
  secret: string;
  previous_secret: string | null;
  enabled: boolean;
  /** When the change that produced it wrote the delivery (commit-to-delivery latency). */
  created_at: Date;
}

/** The outcome of one attempt, as written to the attempt log and the delivery. */
export interface AttemptRecord {
  attemptId: string;
  deliveryId: string;
  attemptedAt: Date;
  responseStatus: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
  /** The delivery's new status ('pending' when a retry is scheduled). */
  status: 'pending' | 'succeeded' | 'failed' | 'rejected';
  nextAttemptAt: Date | null;
  success: boolean;
}

/** What the record statement tells about the endpoint (before this batch), for the 3-day disable rule. */
export interface Recorded {
  /** False when the delivery (with its endpoint) was deleted during the attempt: nothing was written. */
  written: boolean;
  failingSince: Date | null;
  enabled: boolean | null;
}

/**
 * Takes the lease on pending, due deliveries (many at once). The lease (attempt timeout + 5 s) makes
 * one process attempt a delivery at a time; if that process dies, the lease runs out and the sweeper
 * re-queues it. A delivery that is not pending, not due or leased elsewhere is not returned.
 */
const claimSql = `
  update webhook_delivery d
  set lease_until = now() + ? * interval '1 millisecond', attempt_count = d.attempt_count + 1, updated_at = now()
  from webhook_endpoint e
  where d.id = any(?::uuid[]) and e.id = d.endpoint_id and d.status = 'pending'
    and (d.next_attempt_at is null or d.next_attempt_at <= now() + interval '1 second')
    and (d.lease_until is null or d.lease_until < now())
  returning d.id, d.endpoint_id, d.created_at, d.body, d.event_type, d.webhook_event_id, d.attempt_count, d.auto_retry, e.url,
    e.secret, e.enabled,
    case when e.previous_secret_expires_at > now() then e.previous_secret end as previous_secret`;

/**
 * Logs many attempts in one statement: settles each delivery (only if still pending; a manual retry
 * asked for during the attempt queues it again instead) and releases its lease, inserts the attempt rows, tracks each endpoint's failure run, and queues scheduled retries.
 * The delivery update locks the rows first, so an endpoint deleted meanwhile drops its rows from the
 * batch instead of failing the whole statement on the foreign key. The endpoint row is written only
 * when its failure run starts or ends, so a healthy endpoint's row is not a hot spot under load.
 */
const recordSql = `
  with x as (
    select * from unnest(?::uuid[], ?::uuid[], ?::timestamptz[], ?::int[], ?::int[], ?::text[], ?::text[],
      ?::text[], ?::timestamptz[], ?::boolean[])
      as x(attempt_id, delivery_id, attempted_at, response_status, duration_ms, response_body, error, status, next_at, success)
  ),
  d as (
    update webhook_delivery d
    set status = case when d.retry_requested then 'pending' when d.status = 'pending' then x.status else d.status end,
      next_attempt_at = case when d.retry_requested then now() when d.status = 'pending' then x.next_at
                        else d.next_attempt_at end,
      retry_requested = false, lease_until = null, updated_at = now()
    from x
    where d.id = x.delivery_id
    returning d.id, d.endpoint_id, d.workspace_id, d.auto_retry, d.status = 'pending' and d.next_attempt_at is not null as requeue,
      d.next_attempt_at
  ),
  a as (
    insert into webhook_attempt (id, delivery_id, attempted_at, response_status, duration_ms, response_body, error)
    select x.attempt_id, x.delivery_id, x.attempted_at, x.response_status, x.duration_ms, x.response_body, x.error
    from x join d on d.id = x.delivery_id
  ),
  eps as (
    select d.endpoint_id, bool_or(x.success) as any_success from x join d on d.id = x.delivery_id group by d.endpoint_id
  ),
  e as (
    update webhook_endpoint e
    set failing_since = case when eps.any_success then null else now() end
    from eps
    where e.id = eps.endpoint_id
      and case when eps.any_success then e.failing_since is not null else e.failing_since is null end
  ),
  j as (
    select ${addJobSql('d.id::text', 'd.next_attempt_at', `case when d.auto_retry then ${pendingRankSql('d.workspace_id')} else ${manualJobPriority} end`)} as job
    from d where d.requeue
  )
  select d.id, e0.failing_since, e0.enabled, (select count(*) from j) as jobs
  from d join webhook_endpoint e0 on e0.id = d.endpoint_id`;

/**
 * Claims and records attempts, batching concurrent ones into single statements. Each statement stands
 * alone (no surrounding transaction), so when PostgreSQL aborts one to break a lock cycle (an endpoint
 * deleted meanwhile takes the same rows the other way round) nothing of it was written and it is run
 * again: otherwise every attempt of the batch would lose its record and, once its lease ran out, be
 * sent a second time.
 */
export class AttemptStore {
  private readonly claims: Batcher<string, Claimed | undefined>;
  private readonly records: Batcher<AttemptRecord, Recorded>;

  constructor(
    private readonly pool: pg.Pool,
    leaseMs: number,
  ) {
    this.claims = new Batcher(async (ids) => {
      const rows = await retryOnDeadlock(() => sql<Claimed>(pool, claimSql, [leaseMs, ids]));
      const byId = new Map(rows.map((r) => [r.id, r]));
      // Two jobs of one delivery in one batch: only the first gets the lease.
      return ids.map((id) => {
        const row = byId.get(id);
        byId.delete(id);
        return row;
      });
    });
    this.records = new Batcher(async (recs) => {
      const col = <K extends keyof AttemptRecord>(k: K) => recs.map((r) => r[k]);
      const rows = await retryOnDeadlock(() =>
        sql<{ id: string; failing_since: Date | null; enabled: boolean | null }>(pool, recordSql, [
          col('attemptId'),
          col('deliveryId'),
          col('attemptedAt'),
          col('responseStatus'),
          col('durationMs'),
          col('responseBody'),
          col('error'),
          col('status'),
          col('nextAttemptAt'),
          col('success'),
        ]),
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      return recs.map((r) => {
        const row = byId.get(r.deliveryId);
        return { written: !!row, failingSince: row?.failing_since ?? null, enabled: row?.enabled ?? null };
      });
    });
  }

  claim(deliveryId: string): Promise<Claimed | undefined> {
    return this.claims.submit(deliveryId);
  }

  record(rec: AttemptRecord): Promise<Recorded> {
    return this.records.submit(rec);
  }

  /** A claimed delivery whose endpoint was disabled meanwhile is cancelled, not attempted. */
  async cancel(deliveryId: string): Promise<void> {
    await sql(
      this.pool,
      `update webhook_delivery set status = 'cancelled', next_attempt_at = null, lease_until = null, updated_at = now()
       where id = ? and status = 'pending'`,
      [deliveryId],
    );
  }
}
