import type { WebhookEventType } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound, problem } from '../lib/problem';
import type { Actor } from '../lib/actor';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './entities';
import { enqueueNow } from './queue';

export interface DeliveryView {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: WebhookEventType;
  status: WebhookDelivery['status'];
  attempts: {
    attemptedAt: string;
    responseStatus: number | null;
    durationMs: number;
    responseBody: string | null;
    error: string | null;
  }[];
  nextAttemptAt: string | null;
  createdAt: string;
}

type DeliveryRow = Pick<WebhookDelivery, 'id' | 'endpointId' | 'webhookEventId' | 'eventType' | 'status' | 'nextAttemptAt' | 'createdAt'>;

function view(d: DeliveryRow, attempts: WebhookAttempt[]): DeliveryView {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.webhookEventId,
    eventType: d.eventType as WebhookEventType,
    status: d.status,
    attempts: attempts.map((a) => ({
      attemptedAt: a.attemptedAt.toISOString(),
      responseStatus: a.responseStatus ?? null,
      durationMs: a.durationMs,
      responseBody: a.responseBody ?? null,
      error: a.error ?? null,
    })),
    nextAttemptAt: d.status === 'pending' && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
    createdAt: d.createdAt.toISOString(),
  };
}

async function attemptsOf(em: EntityManager, ids: string[]): Promise<Map<string, WebhookAttempt[]>> {
  const out = new Map<string, WebhookAttempt[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await em.find(WebhookAttempt, { deliveryId: { $in: ids } }, { orderBy: { attemptedAt: 'asc' } });
  for (const a of rows) out.get(a.deliveryId)?.push(a);
  return out;
}

export async function toDelivery(em: EntityManager, id: string): Promise<DeliveryView> {
  const d = await em.findOneOrFail(WebhookDelivery, { id }, { refresh: true });
  return view(d, (await attemptsOf(em, [id])).get(id)!);
}

/** Cursor: `<createdAt ISO>|<id>` of the last row of the previous page, base64url. */
const encodeCursor = (d: DeliveryRow) => Buffer.from(`${d.createdAt.toISOString()}|${d.id}`).toString('base64url');
function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(createdAt.getTime())) {
    throw problem('bad_request', 'Invalid request: query.cursor: not a cursor from a previous page', {
      errors: [{ path: 'query.cursor', message: 'not a cursor from a previous page' }],
    });
  }
  return { createdAt, id };
}

async function endpointOf(em: EntityManager, actor: Actor, id: string): Promise<WebhookEndpoint> {
  const e = await em.findOne(WebhookEndpoint, { id, workspaceId: actor.workspaceId });
  if (!e) throw notFound('Webhook endpoint');
  return e;
}

/** The attempt log of an endpoint, newest first. */
export async function listDeliveries(
  em: EntityManager,
  actor: Actor,
  input: { endpointId: string; cursor?: string; limit?: number },
) {
  const e = await endpointOf(em, actor, input.endpointId);
  const limit = input.limit ?? 20;
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const where = after
    ? {
        endpointId: e.id,
        $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }],
      }
    : { endpointId: e.id };
  const rows = await em.find(WebhookDelivery, where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: limit + 1,
    fields: ['id', 'endpointId', 'webhookEventId', 'eventType', 'status', 'nextAttemptAt', 'createdAt'],
  });
  const page = rows.slice(0, limit);
  const attempts = await attemptsOf(
    em,
    page.map((d) => d.id),
  );
  return {
    deliveries: page.map((d) => view(d, attempts.get(d.id)!)),
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}

/** Sends a delivery again now, whatever its status. That attempt's outcome is final (no automatic retries). */
export async function retryDelivery(em: EntityManager, actor: Actor, input: { endpointId: string; deliveryId: string }) {
  return em.transactional(async (tx) => {
    const e = await endpointOf(tx, actor, input.endpointId);
    if (!e.enabled) throw problem('invalid_state', 'The endpoint is disabled; enable it with PATCH enabled: true first');
    const updated = await tx
      .getConnection()
      .execute(
        `update webhook_delivery set status = 'pending', auto_retry = false, next_attempt_at = now(), updated_at = now(),
           retry_requested = lease_until is not null and lease_until > now()
         where id = ? and endpoint_id = ? returning id`,
        [input.deliveryId, e.id],
        'all',
        tx.getTransactionContext(),
      );
    if (!updated.length) throw notFound('Delivery');
    await enqueueNow(tx, input.deliveryId);
    return toDelivery(tx, input.deliveryId);
  });
}
