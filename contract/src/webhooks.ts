import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, idParams, isoTimestamp, meta, noContent, paginationQuery, uuid } from './common';
import { webhookEventTypeSchema } from './webhook-events';

const c = initContract();


export const webhookEndpointSchema = z.object({
  id: uuid,
  workspaceId: uuid,
  url: z.string(),
  eventTypes: z.array(webhookEventTypeSchema).describe('Empty means every type'),
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
  eventId: uuid.describe('The webhook event id (x-gc-event-id)'),
  eventType: webhookEventTypeSchema,
  status: z.enum(deliveryStatuses),
  attempts: z.array(deliveryAttemptSchema),
  nextAttemptAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
});

const url = z.string().url().max(2000);
const endpointDelivery = z.object({ id: uuid, deliveryId: uuid });

export const webhooksContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/webhooks',
      body: z.object({ url, eventTypes: z.array(webhookEventTypeSchema).max(50).optional() }),
      responses: { 201: webhookEndpointWithSecretSchema },
      metadata: meta({ access: 'member', workspace: 'context' }),
      summary: 'Register an HTTPS endpoint (signing secret shown once)',
      description:
        'Registers an HTTPS endpoint for the workspace’s webhook deliveries (`eventTypes` empty means every type). The signing `secret` (`whsec_…`) is in this answer only; verify every delivery’s `x-gc-signature` with it. Private and loopback targets are refused.',
    },
    list: {
      method: 'GET',
      path: '/v1/webhooks',
      responses: { 200: z.object({ webhooks: z.array(webhookEndpointSchema) }) },
      metadata: meta({ access: 'member', workspace: 'context' }),
      summary: 'List endpoints (never secrets)',
      description:
        'The workspace’s webhook endpoints with their state, without secrets.',
    },
    get: {
      method: 'GET',
      path: '/v1/webhooks/:id',
      pathParams: idParams,
      responses: { 200: webhookEndpointSchema },
      metadata: meta({ access: 'member', workspace: 'context' }),
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
          enabled: z.boolean().optional(),
        })
        .strict(),
      responses: { 200: webhookEndpointSchema },
      metadata: meta({ access: 'member', workspace: 'context' }),
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
      metadata: meta({ access: 'member', workspace: 'context' }),
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
      metadata: meta({ access: 'member', workspace: 'context' }),
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
      metadata: meta({ access: 'member', workspace: 'context' }),
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
      metadata: meta({ access: 'member', workspace: 'context' }),
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
      metadata: meta({ access: 'member', workspace: 'context', errors: ['invalid_state'] }),
      summary: 'Send a delivery again',
      description:
        'Queues one more attempt of a delivery, whatever its state. The endpoint must be enabled (409 `invalid_state`).',
    },
  },
  { commonResponses: commonErrors },
);
