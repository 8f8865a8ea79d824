import { eventBudgetMs } from './support/budgets';
import { describe, expect, it } from 'vitest';
import { eventIn, rejection } from './support/events';
import { withDb } from './support/fixtures';
import type { Receiver } from './support/receiver';
import type { TestServer } from './support/server';
import { workspaceWithEndpointAt } from './support/webhook-endpoints';
import { verifyDelivery } from './support/webhook-fixtures';
import { useWebhookTestServer } from './support/webhook-server';
import { quietFor } from './support/wait';

/**
 * Every content create fires its `*.ready` webhook from the same transaction (the outbox), with
 * `assetId` = the created row's id, delivered signed to a real receiver; a refused create fires nothing.
 */

let t: TestServer;
let rx: Receiver;
useWebhookTestServer((started) => {
  ({ t, rx } = started);
});


const workspaceWithEndpoint = (name: string) =>
  workspaceWithEndpointAt(t, rx, name, ['recording.ready', 'transcript.ready', 'clip.ready']);

const outboxOf = (eventId: string) =>
  withDb(t.databaseUrl, async (db) => {
    const res = await db.query<{ id: string; type: string; payload: { assetId: string } }>(
      'select id, type, payload from domain_event where event_id = $1 order by occurred_at, type',
      [eventId],
    );
    return res.rows;
  });

describe('content webhooks', () => {
  it('recording, transcript and clip creates deliver recording.ready, transcript.ready and clip.ready with assetId', async () => {
    const { gc, ep, workspaceId } = await workspaceWithEndpoint('content-ready');
    const event = await eventIn(gc, 'ended');
    const recording = await gc.content.createRecording(event.id, {
      url: 'https://media.example.test/full.mp4',
      durationSeconds: 90,
    });
    const transcript = await gc.content.createTranscript(event.id, {
      recordingId: recording.id,
      segments: [{ speakerName: 'Ada', startSeconds: 0, endSeconds: 3, text: 'Hello there.' }],
    });
    const clip = await gc.content.createClip(recording.id, { startSeconds: 1, endSeconds: 2 });

    await rx.waitFor(() => rx.to('content-ready').length >= 3, eventBudgetMs, 'three deliveries');
    await quietFor(300);
    const bodies = rx.to('content-ready').map((got) => verifyDelivery(got, [ep.secret]));
    expect(bodies).toHaveLength(3);
    const byType = Object.fromEntries(bodies.map((b) => [b.type, b]));
    const outbox = Object.fromEntries((await outboxOf(event.id)).map((r) => [r.type, r.id]));
    const base = { workspaceId, eventId: event.id, sequence: expect.any(Number) };
    expect(byType['recording.ready']).toEqual({
      ...base,
      id: outbox['recording.ready'],
      type: 'recording.ready',
      assetId: recording.id,
      occurredAt: recording.createdAt,
    });
    expect(byType['transcript.ready']).toEqual({
      ...base,
      id: outbox['transcript.ready'],
      type: 'transcript.ready',
      assetId: transcript.id,
      occurredAt: transcript.createdAt,
    });
    expect(byType['clip.ready']).toEqual({
      ...base,
      id: outbox['clip.ready'],
      type: 'clip.ready',
      assetId: clip.id,
      occurredAt: clip.createdAt,
    });
  });

  it('a refused clip or transcript records no domain event and delivers nothing', async () => {
    const { gc } = await workspaceWithEndpoint('content-refused');
    const event = await eventIn(gc, 'draft');
    const recording = await gc.content.createRecording(event.id, {
      url: 'https://m.test/a.mp4',
      durationSeconds: 10,
    });
    await rx.waitFor(() => rx.to('content-refused').length >= 1, eventBudgetMs, 'recording.ready');
    expect(
      await rejection(gc.content.createClip(recording.id, { startSeconds: 5, endSeconds: 11 })),
    ).toMatchObject({ status: 400 });
    expect(
      await rejection(
        gc.content.createTranscript(event.id, {
          recordingId: '00000000-0000-4000-8000-000000000000',
          segments: [{ startSeconds: 0, endSeconds: 1, text: 'Hi.' }],
        }),
      ),
    ).toMatchObject({ status: 400 });
    expect((await outboxOf(event.id)).map((r) => r.type)).toEqual(['recording.ready']);
    await quietFor(300);
    expect(rx.to('content-refused')).toHaveLength(1);
  });
});
