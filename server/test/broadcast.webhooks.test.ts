import { eventBudgetMs } from './support/budgets';
import type { GathercastClient, WebhookEventType } from '@gathercast/sdk';
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
 * Broadcast calls arrive at a real HTTP receiver as docs/webhooks.md's event list says: broadcast.live
 * with exactly the base fields plus broadcastId and playbackUrl, broadcast.paused with the base
 * fields plus broadcastId (the field contract/src/webhook-events.ts declares for it), signed and
 * verified with `@gathercast/webhook-verifier`. Each test has a workspace and endpoint of its own.
 */

let t: TestServer;
let rx: Receiver;
useWebhookTestServer((started) => {
  ({ t, rx } = started);
});


let n = 0;
/** A fresh workspace, its SDK client and one endpoint (all types unless filtered) at a unique path. */
async function workspaceWithEndpoint(eventTypes?: WebhookEventType[]) {
  const name = `broadcast-${++n}`;
  const { ep, ...rest } = await workspaceWithEndpointAt(t, rx, name, eventTypes);
  return { ...rest, name, secret: ep.secret };
}

const onlyBroadcasts: ('broadcast.live' | 'broadcast.paused')[] = ['broadcast.live', 'broadcast.paused'];

/** The outbox rows of an event, oldest first: what each delivery's id and occurredAt must be. */
const recorded = (eventId: string) =>
  withDb(t.databaseUrl, async (db) => {
    const res = await db.query<{ id: string; type: string; occurred_at: Date }>(
      'select id, type, occurred_at from domain_event where event_id = $1 order by occurred_at, id',
      [eventId],
    );
    return res.rows.map((r) => ({ id: r.id, type: r.type, occurredAt: r.occurred_at.toISOString() }));
  });

/** Waits for `count` requests at `name`, then a little longer to see that no more follow. */
async function exactly(name: string, count: number) {
  await rx.waitFor(() => rx.to(name).length >= count, eventBudgetMs, `${count} deliveries to ${name}`);
  await quietFor(300);
  expect(rx.to(name)).toHaveLength(count);
}

/**
 * Every delivery at `name`, verified and parsed, sorted by type and then occurredAt (deliveries may
 * arrive in any order, and two changes within one millisecond have no order).
 */
function bodiesAt(name: string, secret: string) {
  return rx
    .to(name)
    .map((got) => {
      const body = verifyDelivery(got, [secret]);
      expect(got.headers['x-gc-event-id']).toBe(body.id);
      expect(got.headers['x-gc-event-type']).toBe(body.type);
      return body;
    })
    .sort((a, b) => `${a.type} ${a.occurredAt}`.localeCompare(`${b.type} ${b.occurredAt}`));
}

const liveBroadcast = (gc: GathercastClient, phases: ('broadcast' | 'meeting')[] = ['broadcast']) =>
  eventIn(
    gc,
    'live',
    phases.map((modality) => ({ modality })),
  );

describe('broadcast webhooks', () => {
  it('start delivers broadcast.live with exactly the base fields, broadcastId and playbackUrl', async () => {
    const { gc, name, secret, workspaceId } = await workspaceWithEndpoint(onlyBroadcasts);
    const event = await liveBroadcast(gc);
    const started = await gc.broadcast.start(event.id);

    await exactly(name, 1);
    const [live] = (await recorded(event.id)).filter((r) => r.type === 'broadcast.live');
    expect(bodiesAt(name, secret)).toEqual([
      {
        id: live!.id,
        type: 'broadcast.live',
        workspaceId,
        eventId: event.id,
        occurredAt: live!.occurredAt,
        sequence: expect.any(Number),
        broadcastId: started.broadcastId,
        playbackUrl: started.playbackUrl,
      },
    ]);
  });

  it('pause delivers broadcast.paused with exactly the base fields and broadcastId', async () => {
    const { gc, name, secret, workspaceId } = await workspaceWithEndpoint(onlyBroadcasts);
    const event = await liveBroadcast(gc);
    const { broadcastId } = await gc.broadcast.start(event.id);
    await gc.broadcast.pause(event.id);

    await exactly(name, 2);
    const [paused] = (await recorded(event.id)).filter((r) => r.type === 'broadcast.paused');
    expect(bodiesAt(name, secret)[1]).toEqual({
      id: paused!.id,
      type: 'broadcast.paused',
      workspaceId,
      eventId: event.id,
      occurredAt: paused!.occurredAt,
      sequence: expect.any(Number),
      broadcastId,
    });
  });

  it('start, pause, resume deliver live, paused, live for the same broadcast', async () => {
    const { gc, name, secret } = await workspaceWithEndpoint(onlyBroadcasts);
    const event = await liveBroadcast(gc);
    const started = await gc.broadcast.start(event.id);
    await gc.broadcast.pause(event.id);
    await gc.broadcast.start(event.id);

    await exactly(name, 3);
    const bodies = bodiesAt(name, secret);
    expect(bodies.map((b) => [b.type, b.broadcastId])).toEqual([
      ['broadcast.live', started.broadcastId],
      ['broadcast.live', started.broadcastId],
      ['broadcast.paused', started.broadcastId],
    ]);
    expect(bodies[1]!.playbackUrl).toBe(started.playbackUrl);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(3);
  });

  it('a start while already live delivers nothing more', async () => {
    const { gc, name } = await workspaceWithEndpoint(onlyBroadcasts);
    const event = await liveBroadcast(gc);
    await gc.broadcast.start(event.id);
    await gc.broadcast.start(event.id);
    await gc.broadcast.start(event.id);
    await exactly(name, 1);
  });

  it('refused calls (409 invalid_state) deliver nothing', async () => {
    const { gc, name } = await workspaceWithEndpoint(onlyBroadcasts);
    const scheduled = await eventIn(gc, 'scheduled');
    const meeting = await liveBroadcast(gc, ['meeting', 'broadcast']);
    const unstarted = await liveBroadcast(gc);
    const paused = await liveBroadcast(gc);
    await gc.broadcast.start(paused.id);
    await gc.broadcast.pause(paused.id);
    await exactly(name, 2);

    // One call at a time: a rejection must be awaited as soon as it exists.
    for (const refused of [
      () => gc.broadcast.start(scheduled.id),
      () => gc.broadcast.start(meeting.id),
      () => gc.broadcast.pause(unstarted.id),
      () => gc.broadcast.pause(paused.id),
    ]) {
      expect(await rejection(refused())).toMatchObject({ status: 409, code: 'invalid_state' });
    }
    await quietFor(300);
    expect(rx.to(name)).toHaveLength(2);
  });

  it('ending the broadcast phase sends no broadcast webhook: the lifecycle events say it', async () => {
    // The lifecycle types by name: an endpoint for every type also gets event.attendance_ready, whenever
    // the report is built after the end.
    const { gc, name, secret } = await workspaceWithEndpoint([
      ...onlyBroadcasts,
      'event.published',
      'event.started',
      'event.ended',
    ]);
    const event = await liveBroadcast(gc, ['broadcast', 'meeting']);
    await gc.broadcast.start(event.id);
    await gc.events.advance(event.id, {});
    await gc.events.end(event.id);

    await exactly(name, 4);
    expect(bodiesAt(name, secret).map((b) => b.type)).toEqual([
      'broadcast.live',
      'event.ended',
      'event.published',
      'event.started',
    ]);
  });

  it('the next broadcast phase’s start delivers broadcast.live with its new broadcastId and playbackUrl', async () => {
    const { gc, name, secret } = await workspaceWithEndpoint(onlyBroadcasts);
    const event = await liveBroadcast(gc, ['broadcast', 'meeting', 'broadcast']);
    const first = await gc.broadcast.start(event.id);
    await gc.events.advance(event.id, {});
    await gc.events.advance(event.id, {});
    const second = await gc.broadcast.start(event.id);

    await exactly(name, 2);
    const byId = (a: { id: unknown }, b: { id: unknown }) => String(a.id).localeCompare(String(b.id));
    expect(
      bodiesAt(name, secret)
        .map((b) => ({ id: b.broadcastId, url: b.playbackUrl }))
        .sort(byId),
    ).toEqual(
      [
        { id: first.broadcastId, url: first.playbackUrl },
        { id: second.broadcastId, url: second.playbackUrl },
      ].sort(byId),
    );
    expect(second.broadcastId).not.toBe(first.broadcastId);
  });
});
