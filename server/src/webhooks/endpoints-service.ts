import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { WebhookEventType } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { retryOnDeadlock } from '../db/deadlock';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { sql } from '../db/sql';
import { invalidField, notFound, problem } from '../lib/problem';
import type { Actor } from '../lib/actor';
import { newSecret, secretPrefixes } from '../lib/secrets';
import { type DeliveryView, toDelivery } from './deliveries-service';
import { WebhookEndpoint } from './entities';
import { testEvent } from './payload';
import { dropQueuedJobs, insertDelivery } from './queue';
import type { WebhookSettings } from './settings';
import { blockedReason } from '../lib/outbound-guard';
import type { z } from 'zod';
import type { webhookEndpointSchema } from '@gathercast/contract';

/** As the contract says (`webhookEndpointSchema`). */
export type EndpointView = z.infer<typeof webhookEndpointSchema>;

/** The response shape: never the secret. */
export function toEndpoint(e: WebhookEndpoint): EndpointView {
  return {
    id: e.id,
    workspaceId: e.workspaceId,
    url: e.url,
    eventTypes: e.eventTypes as WebhookEventType[],
    eventIds: e.eventIds ?? [],
    enabled: e.enabled,
    disabledReason: e.disabledReason ?? null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

/** https only (http too with WEBHOOK_ALLOW_INSECURE_URLS); obviously internal hosts are refused early. */
function checkUrl(url: string, settings: WebhookSettings): string {
  const u = new URL(url);
  const bad = (message: string) => invalidField('body.url', 'invalid_value', message);
  if (settings.allowInsecure ? !['https:', 'http:'].includes(u.protocol) : u.protocol !== 'https:') {
    throw bad('must be an https:// URL');
  }
  if (u.username || u.password) throw bad('must not carry credentials');
  if (!settings.allowInsecure) {
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost')) throw bad('must not point at localhost');
    if (isIP(host) && blockedReason(host))
      throw bad('must not point at a private, loopback or reserved address');
  }
  return u.toString();
}

const uniqueTypes = (types: WebhookEventType[] | undefined) => [...new Set(types ?? [])];

export function endpointsService(settings: WebhookSettings) {
  async function find(em: EntityManager, actor: Actor, id: string): Promise<WebhookEndpoint> {
    const e = await em.findOne(WebhookEndpoint, { id, workspaceId: actor.workspaceId });
    if (!e) throw notFound('Webhook endpoint');
    return e;
  }

  return {
    find,

    async create(
      em: EntityManager,
      actor: Actor,
      input: { url: string; eventTypes?: WebhookEventType[]; eventIds?: string[] },
    ) {
      const now = new Date();
      const secret = newSecret(secretPrefixes.webhookSecret);
      const e = em.create(WebhookEndpoint, {
        id: randomUUID(),
        workspaceId: actor.workspaceId,
        url: checkUrl(input.url, settings),
        eventTypes: uniqueTypes(input.eventTypes),
        eventIds: [...new Set(input.eventIds ?? [])],
        secret,
        previousSecret: null,
        previousSecretExpiresAt: null,
        enabled: true,
        disabledReason: null,
        failingSince: null,
        createdAt: now,
        updatedAt: now,
      });
      await em.flush();
      return { ...toEndpoint(e), secret };
    },

    async list(em: EntityManager, actor: Actor, input: PageInput) {
      const page = await timeOrderedPage<{ id: string }>(
        em,
        { select: 'select id, created_at from webhook_endpoint where workspace_id = ?', params: [actor.workspaceId] },
        input,
      );
      const ids = page.rows.map((r) => r.id);
      const found = new Map(
        (await em.find(WebhookEndpoint, { id: { $in: ids } })).map((e) => [e.id, e] as const),
      );
      return { webhooks: ids.map((id) => toEndpoint(found.get(id)!)), nextCursor: page.nextCursor };
    },

    async get(em: EntityManager, actor: Actor, id: string) {
      return toEndpoint(await find(em, actor, id));
    },

    async update(
      em: EntityManager,
      actor: Actor,
      id: string,
      input: { url?: string; eventTypes?: WebhookEventType[]; eventIds?: string[]; enabled?: boolean },
    ) {
      const e = await find(em, actor, id);
      if (input.url !== undefined) e.url = checkUrl(input.url, settings);
      if (input.eventTypes !== undefined) e.eventTypes = uniqueTypes(input.eventTypes);
      if (input.eventIds !== undefined) e.eventIds = [...new Set(input.eventIds)];
      if (input.enabled === true && !e.enabled) {
        e.enabled = true;
        e.disabledReason = null;
        e.failingSince = null;
      } else if (input.enabled === false && e.enabled) {
        e.enabled = false;
        e.disabledReason = 'manual';
      }
      e.updatedAt = new Date();
      await em.flush();
      return toEndpoint(e);
    },

    /**
     * Deletes the endpoint with its deliveries; waiting jobs are dropped in the same transaction. Attempts
     * recorded meanwhile lock a delivery, then its endpoint and job, in the opposite order to this cascade:
     * when PostgreSQL breaks that cycle by aborting the delete, it is run again (and when it aborts the
     * attempt record instead, AttemptStore runs that again).
     */
    async remove(em: EntityManager, actor: Actor, id: string): Promise<void> {
      await retryOnDeadlock(() =>
        em.transactional(async (tx) => {
          const e = await find(tx, actor, id);
          await dropQueuedJobs(tx, e.id);
          await sql(tx, 'delete from webhook_endpoint where id = ?', [e.id]);
        }),
      );
    },

    /** A new secret; the old one keeps signing (second v1=) for 24 h. */
    async rotateSecret(em: EntityManager, actor: Actor, id: string) {
      const e = await find(em, actor, id);
      const secret = newSecret(secretPrefixes.webhookSecret);
      await sql(
        em,
        `update webhook_endpoint set previous_secret = secret, previous_secret_expires_at = now() + ? * interval '1 millisecond',
             secret = ?, updated_at = now() where id = ?`,
        [settings.rotationOverlapMs, secret, e.id],
      );
      await em.refresh(e);
      return { ...toEndpoint(e), secret };
    },

    /** A test event for this endpoint only, delivered and logged like any other. */
    async sendTest(
      em: EntityManager,
      actor: Actor,
      id: string,
      type: WebhookEventType = 'event.published',
    ): Promise<DeliveryView> {
      return em.transactional(async (tx) => {
        const e = await find(tx, actor, id);
        if (!e.enabled)
          throw problem(
            'invalid_state',
            'The endpoint is disabled; enable it with PATCH enabled: true first',
          );
        const deliveryId = await insertDelivery(
          tx,
          e.id,
          testEvent(actor.workspaceId, type, settings.publicBaseUrl),
        );
        return toDelivery(tx, deliveryId);
      });
    },
  };
}
export type EndpointsService = ReturnType<typeof endpointsService>;
