import type { WebhookEventType } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound, problem } from '../lib/problem';
import type { Actor } from '../lib/actor';
import { cursorParts, decodeCursor, encodeCursor } from '../lib/cursor';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './entities';
import { enqueueNow } from './queue';
import { sql } from '../db/sql';
import type { z } from 'zod';
import type { deliverySchema } from '@gathercast/contract';

/** As the contract says (`deliverySchema`). */
export type DeliveryView = z.infer<typeof deliverySchema>;

type DeliveryRow = Pick<
  WebhookDelivery,
  'id' | 'endpointId' | 'webhookEventId' | 'eventType' | 'status' | 'nextAttemptAt' | 'createdAt'
>;

function view(d: DeliveryRow, attempts: WebhookAttempt[]): DeliveryView {
  return {
    id: d.id,
    endpointId: d.endpointId,
    webhookEventId: d.webhookEventId,
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
  const rows = await em.find(
    WebhookAttempt,
    { deliveryId: { $in: ids } },
    { orderBy: { attemptedAt: 'asc' } },
  );
  for (const a of rows) out.get(a.deliveryId)?.push(a);
  return out;
}

export async function toDelivery(em: EntityManager, id: string): Promise<DeliveryView> {
  const d = await em.findOneOrFail(WebhookDelivery, { id }, { refresh: true });
  return view(d, (await attemptsOf(em, [id])).get(id)!);
}

/** The page cursor: the last row's (createdAt, id). */
const cursorShape = [cursorParts.isoTimestamp, cursorParts.uuid];

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
  const parts = input.cursor ? decodeCursor(input.cursor, cursorShape) : undefined;
  const after = parts && { createdAt: new Date(parts[0]!), id: parts[1]! };
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
    nextCursor:
      rows.length > limit ? encodeCursor(page.at(-1)!.createdAt.toISOString(), page.at(-1)!.id) : null,
  };
}

/** Sends a delivery again now, whatever its status. That attempt's outcome is final (no automatic retries). */
export async function retryDelivery(
  em: EntityManager,
  actor: Actor,
  input: { endpointId: string; deliveryId: string },
) {
  return em.transactional(async (tx) => {
    const e = await endpointOf(tx, actor, input.endpointId);
    if (!e.enabled)
      throw problem('invalid_state', 'The endpoint is disabled; enable it with PATCH enabled: true first');
    const updated = await sql(
      tx,
      `update webhook_delivery set status = 'pending', auto_retry = false, next_attempt_at = now(), updated_at = now(),
           retry_requested = lease_until is not null and lease_until > now()
         where id = ? and endpoint_id = ? returning id`,
      [input.deliveryId, e.id],
    );
    if (!updated.length) throw notFound('Delivery');
    await enqueueNow(tx, input.deliveryId);
    return toDelivery(tx, input.deliveryId);
  });
}
