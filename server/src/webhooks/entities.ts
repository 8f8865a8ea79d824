import { defineEntity, type InferEntity } from '@mikro-orm/core';

export const disabledReasons = ['manual', 'failing', 'gone'] as const;
export type DisabledReason = (typeof disabledReasons)[number];

export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoint',
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    url: p.text(),
    /** Empty means every type. */
    eventTypes: p.json<string[]>(),
    /** The whsec_ signing secret; never returned after creation, never logged. */
    secret: p.text().lazy(),
    previousSecret: p.text().nullable().lazy(),
    previousSecretExpiresAt: p.datetime().nullable(),
    enabled: p.boolean(),
    disabledReason: p.enum([...disabledReasons]).nullable(),
    failingSince: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;

export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  properties: (p) => ({
    id: p.uuid().primary(),
    endpointId: p.uuid(),
    workspaceId: p.uuid(),
    webhookEventId: p.uuid(),
    eventType: p.text(),
    body: p.text(),
    status: p.enum(['pending', 'succeeded', 'failed', 'rejected', 'cancelled'] as const),
    attemptCount: p.integer(),
    autoRetry: p.boolean(),
    /** A manual retry arrived while an attempt was in flight: queue again once that attempt is recorded. */
    retryRequested: p.boolean(),
    nextAttemptAt: p.datetime().nullable(),
    leaseUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;

export const WebhookAttempt = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempt',
  properties: (p) => ({
    id: p.uuid().primary(),
    deliveryId: p.uuid(),
    attemptedAt: p.datetime(),
    responseStatus: p.integer().nullable(),
    durationMs: p.integer(),
    responseBody: p.text().nullable(),
    error: p.text().nullable(),
  }),
});
export type WebhookAttempt = InferEntity<typeof WebhookAttempt>;

export const webhookEntities = [WebhookEndpoint, WebhookDelivery, WebhookAttempt];
