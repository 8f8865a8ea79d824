import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@gathercast/contract';
import type { RecordedDomainEvent } from '../lib/domain-events';

const baseKeys = new Set(['id', 'type', 'workspaceId', 'eventId', 'occurredAt', 'sequence']);

/**
 * The delivery body: the base fields, then the type's own fields, flat. The body's
 * `id` is the webhook event id, so it is covered by the signature and equals `x-gc-event-id`.
 */
export function webhookBody(event: RecordedDomainEvent): string {
  const body: Record<string, unknown> = {
    id: event.id,
    type: event.type,
    workspaceId: event.workspaceId,
    eventId: event.eventId,
    occurredAt: event.occurredAt.toISOString(),
    sequence: event.sequence,
  };
  for (const [k, v] of Object.entries(event.data)) if (!baseKeys.has(k) && v !== undefined) body[k] = v;
  return JSON.stringify(body);
}

/** The nil UUID marks test events: they are about no real event, asset, question or broadcast. */
export const testEventId = '00000000-0000-0000-0000-000000000000';

/** Placeholder type fields so that a test event has the exact shape of a real one. */
function testFields(type: WebhookEventType, publicBaseUrl: string): Record<string, unknown> {
  switch (type) {
    case 'participant.joined':
    case 'participant.left':
      return { participantId: 'anon:test', anonymous: true, role: 'viewer' };
    case 'broadcast.live':
      return { broadcastId: testEventId, playbackUrl: `${publicBaseUrl}/hls/test/index.m3u8` };
    case 'broadcast.paused':
      return { broadcastId: testEventId };
    case 'recording.ready':
    case 'transcript.ready':
    case 'clip.ready':
      return { assetId: testEventId };
    case 'question.created':
      return { questionId: testEventId, text: 'This is a test question from Gathercast.' };
    case 'participant.removed':
      return { participantId: 'anon:test', reason: 'This is a test removal from Gathercast.', by: 'api' };
    case 'participant.banned':
      return {
        participantId: 'anon:test',
        reason: 'This is a test ban from Gathercast.',
        by: 'api',
        clientAddress: false,
      };
    default:
      return {};
  }
}

export function testEvent(workspaceId: string, type: WebhookEventType, publicBaseUrl: string): RecordedDomainEvent {
  return {
    id: randomUUID(),
    sequence: 0,
    type,
    workspaceId,
    eventId: testEventId,
    occurredAt: new Date(),
    data: testFields(type, publicBaseUrl),
  };
}
