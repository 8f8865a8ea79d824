import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventBudgetMs } from './support/budgets';
import { eventIn, rejection, type Status } from './support/events';
import { withDb } from './support/fixtures';
import type { Received, Receiver } from './support/receiver';
import type { TestServer } from './support/server';
import { quietFor } from './support/wait';
import { workspaceWithEndpointAt } from './support/webhook-endpoints';
import { verifyDelivery } from './support/webhook-fixtures';
import { useWebhookTestServer } from './support/webhook-server';

/**
 * The events domain's lifecycle calls, made through the SDK against the real routes, arrive at a
 * real HTTP receiver as docs/webhooks.md and docs/events.md say: one delivery per
 * committed transition, flat body with exactly the base fields, signed and verified with
 * `@gathercast/webhook-verifier`. Each test has a workspace of its own, so it sees only its events.
 */

let t: TestServer;
let rx: Receiver;

useWebhookTestServer((started) => {
  ({ t, rx } = started);
});

/** The lifecycle calls' own types (an ended event's event.attendance_ready follows on its own schedule). */
const lifecycleTypes: ('event.published' | 'event.started' | 'event.ended')[] = [
  'event.published',
  'event.started',
  'event.ended',
];

/** A fresh workspace, its SDK client, and one endpoint at `/hooks/<name>` of the receiver. */
const workspaceWithEndpoint = (
  name: string,
  eventTypes?: ('event.published' | 'event.started' | 'event.ended')[],
) => workspaceWithEndpointAt(t, rx, name, eventTypes);

/** The outbox rows (domain events) recorded for a live event, by type. */
const domainEventIds = (eventId: string) =>
  withDb(t.databaseUrl, async (db) => {
    const res = await db.query<{ id: string; type: string }>(
      'select id, type from domain_event where event_id = $1',
      [eventId],
    );
    return Object.fromEntries(res.rows.map((r) => [r.type, r.id])) as Record<string, string>;
  });

/** Deliveries created for a live event, whatever their endpoint. */
const deliveryCountOf = (eventId: string) =>
  withDb(t.databaseUrl, async (db) => {
    const res = await db.query<{ n: number }>(
      `select count(*)::int as n from webhook_delivery d join domain_event e on e.id = d.webhook_event_id
       where e.event_id = $1`,
      [eventId],
    );
    return res.rows[0]!.n;
  });

/** Verifies every request at `name` with `secret` and returns the bodies keyed by type. */
function verifiedByType(name: string, secret: string): Record<string, Record<string, unknown>> {
  const byType: Record<string, Record<string, unknown>> = {};
  for (const got of rx.to(name)) {
    const body = verifyDelivery(got, [secret]);
    expectSpecHeaders(got, body);
    expect(byType[body.type as string], `one delivery of ${String(body.type)}`).toBeUndefined();
    byType[body.type as string] = body;
  }
  return byType;
}

function expectSpecHeaders(got: Received, body: Record<string, unknown>) {
  expect(got.headers['x-gc-event-id']).toBe(body.id);
  expect(got.headers['x-gc-event-type']).toBe(body.type);
  expect(got.headers['content-type']).toBe('application/json');
  expect(got.headers['x-gc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
}

/** Waits for `n` requests at `name`, then a little longer to see that no more follow. */
async function exactly(name: string, n: number) {
  await rx.waitFor(() => rx.to(name).length >= n, eventBudgetMs, `${n} deliveries to ${name}`);
  await quietFor(300);
  expect(rx.to(name)).toHaveLength(n);
}

describe('lifecycle calls deliver webhooks', () => {
  it('publish, start and the advance past the last phase deliver event.published, event.started and event.ended with the documented body', async () => {
    // The lifecycle's own types: an ended event's attendance report (event.attendance_ready) follows
    // on its own schedule and is not what these tests count.
    const { gc, ep, workspaceId } = await workspaceWithEndpoint('full-lifecycle', lifecycleTypes);
    const created = await gc.events.create({
      type: 'webinar',
      title: 'Lifecycle',
      phases: [{ modality: 'broadcast' }, { modality: 'meeting' }],
    });
    const published = await gc.events.publish(created.id);
    const started = await gc.events.start(created.id);
    const nextPhase = await gc.events.advance(created.id, {});
    expect(nextPhase.status).toBe('live');
    const ended = await gc.events.advance(created.id, {});
    expect(ended.status).toBe('ended');

    // Three transitions, three deliveries: the advance between phases notifies nobody.
    await exactly('full-lifecycle', 3);
    const ids = await domainEventIds(created.id);
    const base = { workspaceId, eventId: created.id, sequence: expect.any(Number) };
    expect(verifiedByType('full-lifecycle', ep.secret)).toEqual({
      'event.published': {
        ...base,
        id: ids['event.published'],
        type: 'event.published',
        occurredAt: published.publishedAt,
      },
      'event.started': {
        ...base,
        id: ids['event.started'],
        type: 'event.started',
        occurredAt: started.startedAt,
      },
      'event.ended': { ...base, id: ids['event.ended'], type: 'event.ended', occurredAt: ended.endedAt },
    });
  });

  it('ending a scheduled event (a cancellation) delivers event.canceled with the documented body, and no event.started', async () => {
    const { gc, ep, workspaceId } = await workspaceWithEndpoint('cancelled');
    const event = await eventIn(gc, 'scheduled');
    const ended = await gc.events.end(event.id);
    expect(ended.status).toBe('ended');

    await exactly('cancelled', 2);
    const ids = await domainEventIds(event.id);
    const bodies = verifiedByType('cancelled', ep.secret);
    expect(Object.keys(bodies).sort()).toEqual(['event.canceled', 'event.published']);
    expect(bodies['event.canceled']).toEqual({
      id: ids['event.canceled'],
      type: 'event.canceled',
      workspaceId,
      eventId: event.id,
      occurredAt: expect.any(String),
      sequence: expect.any(Number),
    });
  });

  it('an endpoint filtered to event.ended receives only event.ended of a full lifecycle', async () => {
    const { gc, ep: all, workspaceId } = await workspaceWithEndpoint('lifecycle-all', lifecycleTypes);
    const endedOnly = await gc.webhooks.create({
      url: rx.url('lifecycle-ended-only'),
      eventTypes: ['event.ended'],
    });
    const event = await eventIn(gc, 'ended');

    // Once the lifecycle endpoint has all three, the one filtered to event.ended has had its chance at them too.
    await exactly('lifecycle-all', 3);
    expect(Object.keys(verifiedByType('lifecycle-all', all.secret)).sort()).toEqual([
      'event.ended',
      'event.published',
      'event.started',
    ]);
    await exactly('lifecycle-ended-only', 1);
    expect(verifiedByType('lifecycle-ended-only', endedOnly.secret)['event.ended']).toMatchObject({
      type: 'event.ended',
      workspaceId,
      eventId: event.id,
    });
  });

  const refused: [string, Status, (gc: GathercastClient, id: string) => Promise<unknown>][] = [
    ['start of a draft', 'draft', (gc, id) => gc.events.start(id)],
    ['end of a draft', 'draft', (gc, id) => gc.events.end(id)],
    ['publish of a scheduled event', 'scheduled', (gc, id) => gc.events.publish(id)],
    ['advance of a scheduled event', 'scheduled', (gc, id) => gc.events.advance(id, {})],
    ['end of an ended event', 'ended', (gc, id) => gc.events.end(id)],
  ];
  it.each(refused)('a refused %s (409 invalid_state) delivers nothing', async (_, status, call) => {
    const name = `refused-${status}-${Math.random().toString(36).slice(2, 8)}`;
    const { gc } = await workspaceWithEndpoint(name, lifecycleTypes);
    const event = await eventIn(gc, status);
    const transitions = { draft: 0, scheduled: 1, live: 2, ended: 3 }[status];
    await exactly(name, transitions);
    const before = await deliveryCountOf(event.id);
    expect(before).toBe(transitions);

    const err = await rejection(call(gc, event.id));
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });

    // The fan-out runs in the refused call's transaction: no row, so nothing can ever be sent.
    expect(await deliveryCountOf(event.id)).toBe(before);
    await quietFor(300);
    expect(rx.to(name)).toHaveLength(transitions);
  });
});
