import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { SendResult, WebhookHttpClient } from './http-sender';
import { addJobSql } from './queue';
import { nextRetryDelayMs } from './retry-schedule';
import type { WebhookSettings } from './settings';
import { signatureHeader, unixSeconds } from './signer';

export const userAgent = 'Gathercast-Webhooks/1.0';

export interface DeliverDeps {
  pool: pg.Pool;
  http: WebhookHttpClient;
  settings: WebhookSettings;
  logger: Logger;
}

interface Claimed {
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
}

export type AttemptOutcome = 'skipped' | 'succeeded' | 'retrying' | 'failed' | 'rejected' | 'cancelled';

/**
 * Takes the lease on a pending, due delivery. The lease (attempt timeout + 5 s) makes one process
 * attempt a delivery at a time; if that process dies, the lease runs out and the sweeper re-queues it.
 */
const claimSql = `
  update webhook_delivery d
  set lease_until = now() + $2 * interval '1 millisecond', attempt_count = d.attempt_count + 1, updated_at = now()
  from webhook_endpoint e
  where d.id = $1 and e.id = d.endpoint_id and d.status = 'pending'
    and (d.next_attempt_at is null or d.next_attempt_at <= now() + interval '1 second')
    and (d.lease_until is null or d.lease_until < now())
  returning d.id, d.endpoint_id, d.body, d.event_type, d.webhook_event_id, d.attempt_count, d.auto_retry, e.url,
    e.secret, e.enabled,
    case when e.previous_secret_expires_at > now() then e.previous_secret end as previous_secret`;

/** Logs the attempt, settles the delivery, tracks the endpoint's failure run and queues a retry: one statement. */
const recordSql = `
  with a as (
    insert into webhook_attempt (id, delivery_id, attempted_at, response_status, duration_ms, response_body, error)
    values ($1, $2, $3, $4, $5, $6, $7)
  ),
  d as (
    update webhook_delivery set status = $8, next_attempt_at = $9, lease_until = null, updated_at = now()
    where id = $2 and status = 'pending'
  ),
  e as (
    update webhook_endpoint
    set failing_since = case when $10::boolean then null else coalesce(failing_since, now()) end
    where id = $11
    returning failing_since, enabled
  ),
  j as (select ${addJobSql('$2::text', '$9::timestamptz')} as job where $9::timestamptz is not null)
  select (select failing_since from e) as failing_since, (select enabled from e) as enabled, (select count(*) from j) as jobs`;

function classify(result: SendResult): 'success' | 'reject' | 'gone' | 'retry' {
  const s = result.status;
  if (s !== null && s >= 200 && s < 300) return 'success';
  if (s === 410) return 'gone';
  if (s !== null && s >= 400 && s < 500) return 'reject';
  return 'retry'; // 5xx, 3xx (redirects are not followed), 1xx, timeout, connection error, blocked target
}

/** One attempt of one delivery; the graphile-worker task body. */
export async function attemptDelivery(deps: DeliverDeps, deliveryId: string): Promise<AttemptOutcome> {
  const { pool, http, settings, logger } = deps;
  const claimed = await pool.query<Claimed>(claimSql, [deliveryId, settings.timeoutMs + 5000]);
  const d = claimed.rows[0];
  if (!d) return 'skipped';
  if (!d.enabled) {
    await pool.query(
      `update webhook_delivery set status = 'cancelled', next_attempt_at = null, lease_until = null, updated_at = now() where id = $1 and status = 'pending'`,
      [d.id],
    );
    return 'cancelled';
  }

  const attemptedAt = new Date();
  const secrets = d.previous_secret ? [d.secret, d.previous_secret] : [d.secret];
  const headers = {
    'content-type': 'application/json',
    'user-agent': userAgent,
    'x-gc-event-type': d.event_type,
    'x-gc-event-id': d.webhook_event_id,
    'x-gc-signature': signatureHeader(secrets, unixSeconds(attemptedAt), d.body),
  };
  const result = await http.post(d.url, headers, d.body, settings.timeoutMs);
  const kind = classify(result);

  let status: AttemptOutcome;
  let nextAt: Date | null = null;
  if (kind === 'success') status = 'succeeded';
  else if (kind === 'reject' || kind === 'gone') status = 'rejected';
  else {
    const delay = d.auto_retry ? nextRetryDelayMs(d.attempt_count, settings.retryScheduleMs) : null;
    if (delay === null) status = 'failed';
    else {
      status = 'retrying';
      nextAt = new Date(Date.now() + delay);
    }
  }
  const error = result.error ?? (kind === 'retry' && result.status !== null ? `unexpected status ${result.status}` : null);

  try {
    const recorded = await pool.query<{ failing_since: Date | null; enabled: boolean | null }>(recordSql, [
      randomUUID(),
      d.id,
      attemptedAt,
      result.status,
      result.durationMs,
      result.body,
      error,
      status === 'retrying' ? 'pending' : status,
      nextAt,
      kind === 'success',
      d.endpoint_id,
    ]);
    const row = recorded.rows[0];
    if (kind === 'gone') await disableEndpoint(pool, d.endpoint_id, 'gone');
    else if (
      kind !== 'success' &&
      row?.enabled &&
      row.failing_since &&
      Date.now() - row.failing_since.getTime() >= settings.failingDisableMs
    ) {
      await disableEndpoint(pool, d.endpoint_id, 'failing');
    }
  } catch (err) {
    // The endpoint (and with it the delivery) was deleted during the attempt: nothing left to record.
    if ((err as { code?: string }).code === '23503') return 'cancelled';
    throw err;
  }
  if (kind !== 'success') {
    logger.info(
      { deliveryId: d.id, endpointId: d.endpoint_id, status: result.status, error, outcome: status },
      'webhook attempt failed',
    );
  }
  return status;
}

/** Disables an endpoint and cancels what it still had pending. */
export async function disableEndpoint(pool: pg.Pool, endpointId: string, reason: 'failing' | 'gone'): Promise<void> {
  await pool.query(
    `with e as (
       update webhook_endpoint set enabled = false, disabled_reason = $2, updated_at = now()
       where id = $1 and enabled returning id
     )
     update webhook_delivery set status = 'cancelled', next_attempt_at = null, updated_at = now()
     where endpoint_id in (select id from e) and status = 'pending' and lease_until is null`,
    [endpointId, reason],
  );
}
