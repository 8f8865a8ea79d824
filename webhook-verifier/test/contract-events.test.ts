/** The webhook event schemas of the contract (contract/src/webhook-events.ts). */
import { describe, expect, it } from 'vitest';
import {
  participantJoinedEventSchema,
  webhookEventSchema,
  webhookEventSchemas,
  webhookEventTypes,
} from '../../contract/src/webhook-events';
import { vectors } from './helpers';

const base = {
  id: '0b6f8c7e-2f4c-4b7e-9a51-3d1f6e0c2a10',
  workspaceId: 'ws_1',
  eventId: 'evt_1',
  occurredAt: '2023-11-14T22:13:20.000Z',
  sequence: 1,
};

const examples = {
  'event.published': {},
  'event.started': {},
  'event.ended': {},
  'participant.joined': { participantId: 'p_1', userId: 'usr_1', anonymous: false, role: 'speaker' },
  'participant.left': { participantId: 'anon:9', anonymous: true, role: 'viewer' },
  'broadcast.live': { broadcastId: 'b_1', playbackUrl: 'https://cdn.example/live/b_1.m3u8' },
  'broadcast.paused': { broadcastId: 'b_1' },
  'recording.ready': { assetId: 'a_1' },
  'transcript.ready': { assetId: 'a_2' },
  'clip.ready': { assetId: 'a_3' },
  'question.created': { questionId: 'q_1', text: 'Slides?' },
  'event.updated': { changedFields: ['scheduledAt'] },
  'event.canceled': {},
  'event.deleted': {},
  'event.attendance_ready': { uniqueAttendees: 12, peakConcurrent: 9 },
  'registration.created': { registrationId: 'r_1', status: 'registered' },
  'registration.updated': { registrationId: 'r_1', status: 'registered', change: 'promoted' },
  'participant.removed': { participantId: 'anon:9', reason: 'Spam', by: 'api' },
  'participant.banned': { participantId: 'anon:9', reason: null, by: 'api', clientAddress: false },
} as const;

describe('webhook event schemas', () => {
  it('cover every documented event type, each with its own schema', () => {
    expect([...webhookEventTypes].sort()).toEqual(Object.keys(examples).sort());
    expect(Object.keys(webhookEventSchemas).sort()).toEqual(Object.keys(examples).sort());
  });

  it.each(webhookEventTypes)('accept a complete %s body through the discriminated union', (type) => {
    const body = { ...base, type, ...examples[type] };
    expect(webhookEventSchema.parse(body)).toEqual(body);
  });

  it('accept the full bodies of the shared test vectors', () => {
    for (const v of vectors.valid.filter((v) => JSON.parse(v.body).workspaceId)) {
      expect(webhookEventSchema.safeParse(JSON.parse(v.body)).success, v.name).toBe(true);
    }
  });

  it('reject an id that is not a UUID', () => {
    expect(webhookEventSchema.safeParse({ ...base, id: 'evt_1', type: 'event.ended' }).success).toBe(false);
  });

  it('reject an occurredAt that is not an ISO 8601 timestamp', () => {
    expect(
      webhookEventSchema.safeParse({ ...base, occurredAt: 'yesterday', type: 'event.ended' }).success,
    ).toBe(false);
  });

  it('reject an unknown type', () => {
    expect(webhookEventSchema.safeParse({ ...base, type: 'event.archived' }).success).toBe(false);
  });

  it('reject a participant role outside host, speaker, participant, viewer, workspace_admin', () => {
    const body = { ...base, type: 'participant.joined', ...examples['participant.joined'], role: 'owner' };
    expect(participantJoinedEventSchema.safeParse(body).success).toBe(false);
  });

  it('require the per-type fields', () => {
    expect(webhookEventSchema.safeParse({ ...base, type: 'recording.ready' }).success).toBe(false);
    expect(webhookEventSchema.safeParse({ ...base, type: 'question.created', questionId: 'q' }).success).toBe(
      false,
    );
  });

  it('leave userId optional for anonymous viewers', () => {
    const body = { ...base, type: 'participant.left', ...examples['participant.left'] };
    expect(webhookEventSchema.safeParse(body).success).toBe(true);
  });
});
