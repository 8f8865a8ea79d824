import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import { observeWebhookDelivered } from '../lib/metrics';
import type { AttemptStore } from './attempt-store';
import type { SendResult, WebhookHttpClient } from './http-sender';
import { nextRetryDelayMs } from './retry-schedule';
import type { WebhookSettings } from './settings';
import { signatureHeader, unixSeconds } from './signer';
import { sql } from '../db/sql';

export const userAgent = 'Gathercast-Webhooks/1.0';

export interface DeliverDeps {
  pool: pg.Pool;
  store: AttemptStore;
  http: WebhookHttpClient;
  settings: WebhookSettings;
  logger: Logger;
}

export type AttemptOutcome = 'skipped' | 'succeeded' | 'retrying' | 'failed' | 'rejected' | 'cancelled';

function classify(result: SendResult): 'success' | 'reject' | 'gone' | 'retry' {
  const s = result.status;
  if (s !== null && s >= 200 && s < 300) return 'success';
  if (s === 410) return 'gone';
  if (s !== null && s >= 400 && s < 500) return 'reject';
  return 'retry'; // 5xx, 3xx (redirects are not followed), 1xx, timeout, connection error, blocked target
}

/** One attempt of one delivery; the graphile-worker task body. */
export async function attemptDelivery(deps: DeliverDeps, deliveryId: string): Promise<AttemptOutcome> {
  const { pool, store, http, settings, logger } = deps;
  const d = await store.claim(deliveryId);
  if (!d) return 'skipped';
  if (!d.enabled) {
    await store.cancel(d.id);
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
  if (kind === 'success') {
    status = 'succeeded';
    observeWebhookDelivered(d.created_at);
  }
  else if (kind === 'reject' || kind === 'gone') status = 'rejected';
  else {
    const delay = d.auto_retry ? nextRetryDelayMs(d.attempt_count, settings.retryScheduleMs) : null;
    if (delay === null) status = 'failed';
    else {
      status = 'retrying';
      nextAt = new Date(Date.now() + delay);
    }
  }
  const error =
    result.error ??
    (kind === 'retry' && result.status !== null ? `unexpected status ${result.status}` : null);

  const recorded = await store.record({
    attemptId: randomUUID(),
    deliveryId: d.id,
    attemptedAt,
    responseStatus: result.status,
    durationMs: result.durationMs,
    responseBody: result.body,
    error,
    status: status === 'retrying' ? 'pending' : status,
    nextAttemptAt: nextAt,
    success: kind === 'success',
  });
  // The endpoint (and with it the delivery) was deleted during the attempt: nothing left to record.
  if (!recorded.written) return 'cancelled';
  if (kind === 'gone') await disableEndpoint(pool, d.endpoint_id, 'gone');
  else if (
    kind !== 'success' &&
    recorded.enabled &&
    recorded.failingSince &&
    Date.now() - recorded.failingSince.getTime() >= settings.failingDisableMs
  ) {
    await disableEndpoint(pool, d.endpoint_id, 'failing');
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
export async function disableEndpoint(
  pool: pg.Pool,
  endpointId: string,
  reason: 'failing' | 'gone',
): Promise<void> {
  await sql(
    pool,
    `with e as (
       update webhook_endpoint set enabled = false, disabled_reason = ?, updated_at = now()
       where id = ? and enabled returning id
     )
     update webhook_delivery set status = 'cancelled', next_attempt_at = null, updated_at = now()
     where endpoint_id in (select id from e) and status = 'pending' and lease_until is null`,
    [reason, endpointId],
  );
}
