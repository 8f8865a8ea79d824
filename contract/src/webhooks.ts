import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, cursorPage, idParams, isoTimestamp, meta, noContent, paginationQuery, pagingRule, timestamp, uuid } from './common';
import { webhookEventSchema, webhookEventTypeSchema } from './webhook-events';

const c = initContract();


export const webhookEndpointSchema = z.object({
  id: uuid,
  workspaceId: uuid,
  url: z.string(),
  eventTypes: z.array(webhookEventTypeSchema).describe('Empty means every type'),
  eventIds: z.array(uuid).describe('Only notifications about these events; empty means every event'),
  enabled: z.boolean(),
  disabledReason: z
    .enum(['manual', 'failing', 'gone'])
    .nullable()
    .describe('failing: only failures for 3 days; gone: the receiver answered 410'),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  secret: z.string().describe('whsec_ signing secret; shown once'),
});

export const deliveryStatuses = ['pending', 'succeeded', 'failed', 'rejected', 'cancelled'] as const;

export const deliveryAttemptSchema = z.object({
  attemptedAt: isoTimestamp,
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int(),
  responseBody: z.string().nullable().describe('First 1 KiB of the response body'),
  error: z.string().nullable().describe('timeout, connection error or blocked target'),
});

export const deliverySchema = z.object({
  id: uuid,
  endpointId: uuid,
  webhookEventId: uuid.describe(
    "The id of the webhook event (the notification) this delivery carries: the payload's `id` and the `x-gc-event-id` header. Not the live event: that is the payload's `eventId`.",
  ),
  eventType: webhookEventTypeSchema,
  status: z.enum(deliveryStatuses),
  attempts: z.array(deliveryAttemptSchema),
  nextAttemptAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
});

const url = z.string().url().max(2000);

const sequenceNumber = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const redeliveryRange = z
  .object({
    fromSequence: sequenceNumber.optional().describe('First sequence number to send (inclusive)'),
    toSequence: sequenceNumber.optional().describe('Last sequence number to send (inclusive)'),
    from: timestamp.optional().describe('Notifications that occurred at or after this instant'),
    to: timestamp.optional().describe('Notifications that occurred before this instant'),
  })
  .strict()
  .refine((r) => Object.values(r).some((v) => v !== undefined), {
    message: 'Give a range: fromSequence/toSequence or from/to',
  });
const endpointDelivery = z.object({ id: uuid, deliveryId: uuid });

export const webhooksContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/webhooks',
      body: z.object({
        url,
        eventTypes: z.array(webhookEventTypeSchema).max(50).optional(),
        eventIds: z.array(uuid).max(100).optional(),
      }),
      responses: { 201: webhookEndpointWithSecretSchema },
      metadata: meta({ access: 'member', scope: 'webhooks:write', workspace: 'context' }),
      summary: 'Register an HTTPS endpoint (signing secret shown once)',
      description:
        'Registers an HTTPS endpoint for the workspace’s webhook deliveries (`eventTypes` empty means every type; `eventIds` limits it to notifications about those events, empty means every event). The signing `secret` (`whsec_…`) is in this answer only; verify every delivery’s `x-gc-signature` with it. Private and loopback targets are refused.',
    },
    list: {
      method: 'GET',
      path: '/v1/webhooks',
      query: paginationQuery,
      responses: { 200: cursorPage('webhooks', webhookEndpointSchema) },
      metadata: meta({ access: 'member', scope: 'webhooks:read', workspace: 'context' }),
      summary: 'List endpoints (never secrets)',
      description:
        `The workspace’s webhook endpoints with their state, without secrets, oldest first. ${pagingRule}`,
    },
    get: {
      method: 'GET',
      path: '/v1/webhooks/:id',
      pathParams: idParams,
      responses: { 200: webhookEndpointSchema },
      metadata: meta({ access: 'member', scope: 'webhooks:read', workspace: 'context' }),
      summary: 'Read an endpoint',
      description:
        'One webhook endpoint with its state (`enabled`, `disabledReason`), without its secret.',
    },
    update: {
      method: 'PATCH',
      path: '/v1/webhooks/:id',
      pathParams: idParams,
      body: z
        .object({
          url: url.optional(),
          eventTypes: z.array(webhookEventTypeSchema).max(50).optional(),
          eventIds: z.array(uuid).max(100).optional(),
          enabled: z.boolean().optional(),
        })
        .strict(),
      responses: { 200: webhookEndpointSchema },
      metadata: meta({ access: 'member', scope: 'webhooks:write', workspace: 'context' }),
      summary: 'Change url, event types, or enable/disable',
      description:
        'Changes the URL or event types, or enables/disables the endpoint. Re-enabling clears `disabledReason`. An endpoint that only failed for 3 days, or whose receiver answered 410, is disabled by the server.',
    },
    delete: {
      method: 'DELETE',
      path: '/v1/webhooks/:id',
      pathParams: idParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'member', scope: 'webhooks:write', workspace: 'context' }),
      summary: 'Delete an endpoint; queued deliveries stop immediately',
      description:
        'Deletes the endpoint; its queued deliveries stop at once.',
    },
    rotateSecret: {
      method: 'POST',
      path: '/v1/webhooks/:id/rotate-secret',
      pathParams: idParams,
      body: noContent,
      responses: { 200: webhookEndpointWithSecretSchema },
      metadata: meta({ access: 'member', scope: 'webhooks:write', workspace: 'context' }),
      summary: 'New signing secret; for 24 h deliveries carry both signatures',
      description:
        'Issues a new signing secret (shown once). For 24 hours deliveries carry signatures with both the old and the new secret, so receivers can switch without losing any.',
    },
    test: {
      method: 'POST',
      path: '/v1/webhooks/:id/test',
      pathParams: idParams,
      body: z.object({ type: webhookEventTypeSchema.optional() }).optional(),
      responses: { 202: deliverySchema },
      metadata: meta({ access: 'member', scope: 'webhooks:write', workspace: 'context' }),
      summary: 'Send a test event (delivered and logged like any other)',
      description:
        'Queues a test delivery to the endpoint; it is signed, retried and logged like any other, so it exercises the receiver end to end.',
    },
    listDeliveries: {
      method: 'GET',
      path: '/v1/webhooks/:id/deliveries',
      pathParams: idParams,
      query: paginationQuery,
      responses: { 200: z.object({ deliveries: z.array(deliverySchema), nextCursor: z.string().nullable() }) },
      metadata: meta({ access: 'member', scope: 'webhooks:read', workspace: 'context' }),
      summary: 'The attempt log, newest first',
      description:
        'The endpoint’s deliveries, newest first, each with every attempt (status, duration, the first 1 KiB of the answer, or the error).',
    },
    retryDelivery: {
      method: 'POST',
      path: '/v1/webhooks/:id/deliveries/:deliveryId/retry',
      pathParams: endpointDelivery,
      body: noContent,
      responses: { 202: deliverySchema },
      metadata: meta({ access: 'member', scope: 'webhooks:write', workspace: 'context', errors: ['invalid_state'] }),
      summary: 'Send a delivery again',
      description:
        'Queues one more attempt of a delivery, whatever its state. The endpoint must be enabled (409 `invalid_state`).',
    },
    redeliver: {
      method: 'POST',
      path: '/v1/webhooks/:id/redeliver',
      pathParams: idParams,
      body: redeliveryRange,
      responses: { 202: z.object({ queued: z.number().int().describe('Deliveries queued') }) },
      metadata: meta({ access: 'member', scope: 'webhooks:write', workspace: 'context', errors: ['invalid_state'] }),
      summary: 'Send a range of past notifications to the endpoint again',
      description:
        'Queues a new delivery to this endpoint of every notification of the last 30 days in the range (by `sequence`, or by `occurredAt` time) that the endpoint takes (its event types and event ids), in sequence order and behind other workspaces’ deliveries (the fair queue). Each keeps its `id` and `sequence`, so a receiver deduplicates as usual. At most 100,000 per call. The endpoint must be enabled (409 `invalid_state`).',
    },
  },
  { commonResponses: commonErrors },
);

export const eventLogContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/event-log',
      query: paginationQuery.extend({
        after: sequenceNumber.optional().describe('Return notifications with a sequence number above this one'),
      }),
      responses: { 200: z.object({ events: z.array(webhookEventSchema), nextCursor: z.string().nullable() }) },
      metadata: meta({ access: 'member', scope: 'webhooks:read', workspace: 'context' }),
      summary: 'The workspace’s notifications of the last 30 days, in sequence order',
      description:
        'Every notification of the workspace (the same bodies webhooks deliver, whatever the endpoints take) in `sequence` order, oldest first, for the last 30 days. Numbers have no gaps: a receiver that remembers the last `sequence` it processed asks `after=<it>` and pages with `nextCursor` until it is null, and has missed nothing. Up to `limit` (default and maximum 100) per page.',
    },
  },
  { commonResponses: commonErrors },
);
