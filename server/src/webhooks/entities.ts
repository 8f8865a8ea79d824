import { defineEntity, type InferEntity } from '@mikro-orm/core';

export const disabledReasons = ['manual', 'failing', 'gone'] as const;
export type DisabledReason = (typeof disabledReasons)[number];

export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoint',
  indexes: [{ name: 'webhook_endpoint_workspace_idx', properties: ['workspaceId', 'createdAt'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    url: p.text(),
    /** Empty means every type. */
    eventTypes: p.json<string[]>().defaultRaw("'[]'"),
    /** Only notifications about these events; empty means every event. */
    eventIds: p.json<string[]>().default([]),
    /** The whsec_ signing secret; never returned after creation, never logged. */
    secret: p.text().lazy(),
    previousSecret: p.text().nullable().lazy(),
    previousSecretExpiresAt: p.datetime().nullable(),
    enabled: p.boolean().defaultRaw('true'),
    disabledReason: p.enum([...disabledReasons]).nullable(),
    failingSince: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;

export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  indexes: [
    {
      name: 'webhook_delivery_endpoint_idx',
      expression:
        'CREATE INDEX webhook_delivery_endpoint_idx ON public.webhook_delivery USING btree (endpoint_id, created_at DESC, id DESC)',
    },
    {
      name: 'webhook_delivery_pending_idx',
      expression:
        "CREATE INDEX webhook_delivery_pending_idx ON public.webhook_delivery USING btree (next_attempt_at) WHERE (status = 'pending'::text)",
    },
    {
      name: 'webhook_delivery_workspace_pending_idx',
      expression:
        "CREATE INDEX webhook_delivery_workspace_pending_idx ON public.webhook_delivery USING btree (workspace_id) WHERE (status = 'pending'::text)",
    },
  ],
  properties: (p) => ({
    id: p.uuid().primary(),
    endpointId: p.uuid(),
    workspaceId: p.uuid(),
    webhookEventId: p.uuid(),
    eventType: p.text(),
    body: p.text(),
    status: p
      .enum(['pending', 'succeeded', 'failed', 'rejected', 'cancelled'] as const)
      .defaultRaw("'pending'"),
    attemptCount: p.integer().defaultRaw('0'),
    autoRetry: p.boolean().defaultRaw('true'),
    /** A manual retry arrived while an attempt was in flight: queue again once that attempt is recorded. */
    retryRequested: p.boolean().defaultRaw('false'),
    nextAttemptAt: p.datetime().nullable(),
    leaseUntil: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;

export const WebhookAttempt = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempt',
  indexes: [{ name: 'webhook_attempt_delivery_idx', properties: ['deliveryId', 'attemptedAt'] }],
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
