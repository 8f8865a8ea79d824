import { describe, expect, it } from 'vitest';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import type { Receiver } from './support/receiver';
import type { TestServer } from './support/server';
import { workspaceWithEndpointAt } from './support/webhook-endpoints';
import { useWebhookTestServer } from './support/webhook-server';

let t: TestServer;
let rx: Receiver;
useWebhookTestServer((started) => {
  ({ t, rx } = started);
});

/*
 * Events are taken live, not ended: an ended event's attendance report adds event.attendance_ready on
 * the scheduled jobs' own clock, which would make the counts below a race.
 */
const bodiesTo = (name: string) =>
  rx.to(name).map((r) => JSON.parse(r.body) as { sequence: number; id: string });

describe('the integration feed', () => {
  it('numbers every notification of a workspace 1, 2, 3, … and carries the number in the webhook body', async () => {
    const { gc } = await workspaceWithEndpointAt(t, rx, 'numbered');
    await eventIn(gc, 'live');
    await eventIn(gc, 'scheduled');
    await rx.waitFor(() => rx.to('numbered').length === 3, undefined, 'three lifecycle notifications');
    expect(
      bodiesTo('numbered')
        .map((b) => b.sequence)
        .sort(),
    ).toEqual([1, 2, 3]);
  });

  it('answers GET /v1/event-log with the delivered bodies in sequence order, after a number, page by page', async () => {
    const { gc } = await workspaceWithEndpointAt(t, rx, 'feed');
    for (let i = 0; i < 3; i++) await eventIn(gc, 'live');
    await rx.waitFor(() => rx.to('feed').length === 6, undefined, 'six notifications');
    const delivered = bodiesTo('feed').sort((a, b) => a.sequence - b.sequence);
    const all = await gc.eventLog.list({ limit: 4 }).collect();
    expect(all).toEqual(delivered);
    const after = await gc.eventLog.list({ after: 4 });
    expect(after.events.map((e) => e.sequence)).toEqual([5, 6]);
    expect(after.nextCursor).toBeNull();
  });

  it('keeps the sequence free of gaps when changes of one workspace commit concurrently', async () => {
    const { gc } = await workspaceWithEndpointAt(t, rx, 'concurrent', ['event.published']);
    const events = await Promise.all(Array.from({ length: 8 }, () => eventIn(gc, 'draft')));
    await Promise.all(events.map((e) => gc.events.publish(e.id)));
    const { events: log } = await gc.eventLog.list({});
    expect(log.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('leaves out notifications older than 30 days', async () => {
    const { gc, workspaceId } = await workspaceWithEndpointAt(t, rx, 'old', ['event.published']);
    await eventIn(gc, 'scheduled');
    await eventIn(gc, 'scheduled');
    await withDb(t.databaseUrl, (db) =>
      db.query(
        `update domain_event set occurred_at = now() - interval '31 days' where workspace_id = $1 and seq = 1`,
        [workspaceId],
      ),
    );
    const { events } = await gc.eventLog.list({});
    expect(events.map((e) => e.sequence)).toEqual([2]);
  });

  it('delivers to an endpoint only the events it names in eventIds', async () => {
    const { gc } = await workspaceWithEndpointAt(t, rx, 'all-of-one');
    const one = await eventIn(gc, 'draft');
    const ep = await gc.webhooks.create({ url: rx.url('only-one'), eventIds: [one.id] });
    expect(ep.eventIds).toEqual([one.id]);
    await eventIn(gc, 'scheduled');
    await gc.events.publish(one.id);
    await rx.waitFor(
      () => rx.to('all-of-one').length === 2,
      undefined,
      'both publications to the open endpoint',
    );
    await rx.waitFor(
      () => rx.to('only-one').length === 1,
      undefined,
      'the named event to the filtered endpoint',
    );
    expect((JSON.parse(rx.to('only-one')[0]!.body) as { eventId: string }).eventId).toBe(one.id);
  });

  it('redelivers a range by sequence to an endpoint, each with its id and number', async () => {
    const { gc, ep } = await workspaceWithEndpointAt(t, rx, 'replayed');
    for (let i = 0; i < 3; i++) await eventIn(gc, 'live');
    await rx.waitFor(() => rx.to('replayed').length === 6, undefined, 'the first deliveries');
    const { queued } = await gc.webhooks.redeliver(ep.id, { fromSequence: 2, toSequence: 4 });
    expect(queued).toBe(3);
    await rx.waitFor(() => rx.to('replayed').length === 9, undefined, 'the redeliveries');
    const again = bodiesTo('replayed').slice(6);
    expect(again.map((b) => b.sequence).sort()).toEqual([2, 3, 4]);
    const original = bodiesTo('replayed').find((b) => b.sequence === 3)!;
    expect(again.find((b) => b.sequence === 3)).toEqual(original);
  });

  it('redelivers a range by time', async () => {
    const { gc, ep } = await workspaceWithEndpointAt(t, rx, 'by-time', ['event.published']);
    await eventIn(gc, 'scheduled');
    await rx.waitFor(() => rx.to('by-time').length === 1, undefined, 'the first delivery');
    const { queued } = await gc.webhooks.redeliver(ep.id, {
      from: new Date(Date.now() - 3600_000).toISOString(),
    });
    expect(queued).toBe(1);
    await rx.waitFor(() => rx.to('by-time').length === 2, undefined, 'the redelivery');
  });

  it('refuses a redelivery without a range (400) and to a disabled endpoint (409 invalid_state)', async () => {
    const { gc, ep } = await workspaceWithEndpointAt(t, rx, 'refused');
    await expect(gc.webhooks.redeliver(ep.id, {})).rejects.toMatchObject({
      status: 400,
    });
    await gc.webhooks.update(ep.id, { enabled: false });
    await expect(gc.webhooks.redeliver(ep.id, { fromSequence: 1 })).rejects.toMatchObject({
      status: 409,
      code: 'invalid_state',
    });
  });
});
