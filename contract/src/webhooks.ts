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
    },
    list: {
      method: 'GET',
      path: '/v1/webhooks',
      responses: { 200: z.object({ webhooks: z.array(webhookEndpointSchema) }) },
      metadata: meta({ access: 'member', workspace: 'context' }),
      summary: 'List endpoints (never secrets)',
    },
    get: {
      method: 'GET',
      path: '/v1/webhooks/:id',
      pathParams: idParams,
      responses: { 200: webhookEndpointSchema },
      metadata: meta({ access: 'member', workspace: 'context' }),
      summary: 'Read an endpoint',
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
    },
    delete: {
      method: 'DELETE',
      path: '/v1/webhooks/:id',
      pathParams: idParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'member', workspace: 'context' }),
      summary: 'Delete an endpoint; queued deliveries stop immediately',
    },
    rotateSecret: {
      method: 'POST',
      path: '/v1/webhooks/:id/rotate-secret',
      pathParams: idParams,
      body: noContent,
      responses: { 200: webhookEndpointWithSecretSchema },
      metadata: meta({ access: 'member', workspace: 'context' }),
      summary: 'New signing secret; for 24 h deliveries carry both signatures',
    },
    test: {
      method: 'POST',
      path: '/v1/webhooks/:id/test',
      pathParams: idParams,
      body: z.object({ type: webhookEventTypeSchema.optional() }).optional(),
      responses: { 202: deliverySchema },
      metadata: meta({ access: 'member', workspace: 'context' }),
      summary: 'Send a test event (delivered and logged like any other)',
    },
    listDeliveries: {
      method: 'GET',
      path: '/v1/webhooks/:id/deliveries',
      pathParams: idParams,
      query: paginationQuery,
      responses: { 200: z.object({ deliveries: z.array(deliverySchema), nextCursor: z.string().nullable() }) },
      metadata: meta({ access: 'member', workspace: 'context' }),
      summary: 'The attempt log, newest first',
    },
    retryDelivery: {
      method: 'POST',
      path: '/v1/webhooks/:id/deliveries/:deliveryId/retry',
      pathParams: endpointDelivery,
      body: noContent,
      responses: { 202: deliverySchema },
      metadata: meta({ access: 'member', workspace: 'context' }),
      summary: 'Send a delivery again',
    },
  },
  { commonResponses: commonErrors },
);
