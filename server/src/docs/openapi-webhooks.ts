import { generateSchema } from '@anatine/zod-openapi';
import { type WebhookEventType, webhookEventSchemas, webhookEventTypes } from '@gathercast/contract';

/**
 * The OpenAPI `webhooks` section: one entry per delivery type, its body schema taken from the contract's
 * webhook schemas (the same ones the verifier's `WebhookEvent` types are checked against).
 */

const when: Record<WebhookEventType, string> = {
  'event.published': 'An event was published (draft → scheduled).',
  'event.started': 'An event went live; its first phase is active.',
  'event.ended': 'An event ended (the last phase was advanced past, or it was ended while live).',
  'participant.joined':
    'A participant connected to the live gateway of an event (first connection of that participant).',
  'participant.left': 'A participant’s last live-gateway connection to an event closed or timed out.',
  'broadcast.live': 'The broadcast of the active broadcast phase started streaming; `playbackUrl` plays it.',
  'broadcast.paused': 'The broadcast was paused.',
  'recording.ready': 'A recording was ingested and can be listed and clipped.',
  'transcript.ready': 'A transcript was ingested; the summary and table notes are produced from it.',
  'clip.ready': 'A requested clip of a recording is ready.',
  'question.created': 'Someone asked a question in an event’s Q&A.',
  'event.updated': 'An event’s settings changed; `changedFields` names the fields.',
  'event.canceled': 'A scheduled event was canceled (ended before it started); `event.ended` does not fire.',
  'event.deleted': 'An event was deleted with everything it held.',
  'event.attendance_ready': 'The attendance and engagement report of an ended event can be read.',
  'registration.created': 'Someone registered for an event.',
  'registration.updated':
    'A registration was approved, waitlisted, promoted from the waiting list or canceled.',
  'participant.removed': 'A participant was removed from an event’s live room.',
  'participant.banned': 'A participant was banned from an event’s live room for the rest of the event.',
};

const base = {
  id: '5b0f7c6e-3f2a-4d1b-9a8e-2c4d6f8a0b1c',
  workspaceId: '9d2e4b6a-1c3f-4e5a-8b7d-0f1e2d3c4b5a',
  eventId: '3c8a1e5f-7b2d-4a9c-b6e0-1d2f3a4b5c6d',
  occurredAt: '2026-11-24T18:30:00.000Z',
  sequence: 42,
};
const participant = {
  participantId: '7e1d3c5b-9a2f-4b8e-a6c4-2d0f1e3a5b7c',
  userId: 'a4b6c8d0-2e4f-4a6b-8c0d-1e3f5a7b9c2d',
  anonymous: false,
  role: 'participant',
};
const asset = { assetId: 'f2e4d6c8-0a1b-4c3d-9e5f-6a7b8c9d0e1f' };

const extra: Record<WebhookEventType, Record<string, unknown>> = {
  'event.published': {},
  'event.started': {},
  'event.ended': {},
  'participant.joined': participant,
  'participant.left': participant,
  'broadcast.live': {
    broadcastId: 'b1c3e5a7-9d2f-4b6a-8c0e-2f4a6c8e0b1d',
    playbackUrl: 'https://api.example.test/hls/b1c3e5a7-9d2f-4b6a-8c0e-2f4a6c8e0b1d/index.m3u8',
  },
  'broadcast.paused': { broadcastId: 'b1c3e5a7-9d2f-4b6a-8c0e-2f4a6c8e0b1d' },
  'recording.ready': asset,
  'transcript.ready': asset,
  'clip.ready': asset,
  'question.created': {
    questionId: 'c7d9e1f3-5a7b-4c9d-8e0f-3a5b7c9d1e2f',
    text: 'Will the slides be shared?',
  },
  'event.updated': { changedFields: ['scheduledAt', 'scheduledEndAt'] },
  'event.canceled': {},
  'event.deleted': {},
  'event.attendance_ready': { uniqueAttendees: 412, peakConcurrent: 380 },
  'registration.created': { registrationId: 'd4f6a8c0-2b4d-4e6f-8a0c-4e6a8c0e2b4d', status: 'registered' },
  'registration.updated': {
    registrationId: 'd4f6a8c0-2b4d-4e6f-8a0c-4e6a8c0e2b4d',
    status: 'registered',
    change: 'promoted',
  },
  'participant.removed': {
    participantId: 'anon:0b2d4f6a-8c1e-4a3b-9d5f-7e9a1c3b5d7f',
    reason: 'Spam',
    by: 'api',
  },
  'participant.banned': {
    participantId: 'anon:0b2d4f6a-8c1e-4a3b-9d5f-7e9a1c3b5d7f',
    reason: 'Spam',
    by: 'api',
    clientAddress: true,
  },
};

/** `participant.joined` → `ParticipantJoinedWebhook`. */
export const webhookSchemaName = (type: WebhookEventType) =>
  `${type
    .split('.')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}Webhook`;

const headerParameter = (name: string, description: string, schema: Record<string, unknown>) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
});

export function webhookSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    webhookEventTypes.map((type) => [
      webhookSchemaName(type),
      generateSchema(webhookEventSchemas[type], true),
    ]),
  );
}

export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    webhookEventTypes.map((type) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary: `${type} delivery`,
          description: `${when[type]}\n\nSent as a POST to every enabled endpoint subscribed to \`${type}\`. Verify \`x-gc-signature\` against the raw body before parsing it (\`@gathercast/webhook-verifier\`); dedupe on \`x-gc-event-id\` (retries reuse it). Answer any 2xx within 10 seconds; a 5xx or a timeout is retried with backoff, a 4xx is recorded as rejected and not retried.`,
          tags: ['webhooks'],
          security: [],
          parameters: [
            headerParameter('x-gc-event-type', 'The event type', { type: 'string', enum: [type] }),
            headerParameter('x-gc-event-id', 'The notification id (the body’s `id`); retries reuse it', {
              type: 'string',
              format: 'uuid',
            }),
            headerParameter('x-gc-signature', '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`', {
              type: 'string',
            }),
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${webhookSchemaName(type)}` },
                example: { ...base, type, ...extra[type] },
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx acknowledges the delivery' },
            '400': { description: 'Any 4xx rejects the delivery; it is not retried' },
          },
        },
      },
    ]),
  );
}
