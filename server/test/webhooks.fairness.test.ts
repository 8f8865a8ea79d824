import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addJobsSql } from '../src/webhooks/queue';
import { eventBudgetMs } from './support/budgets';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { useTestServer } from './support/hooks';
import { Receiver } from './support/receiver';
import type { TestServer } from './support/server';
import { workspaceWithEndpointAt } from './support/webhook-endpoints';

/**
 * One workspace's backlog at an endpoint that never answers (every attempt runs into the timeout)
 * must not hold back another workspace's deliveries, nor a test send or a manual retry. Without fair
 * ordering, 2,000 such attempts at 8 at a time and 1 s each would keep everyone waiting ~250 s.
 */
const timeoutMs = 1000;
const backlog = 2000;
/** The documented bound (2 × WEBHOOK_TIMEOUT_MS + 1 s), with room for a loaded CI machine. */
const boundMs = 2 * timeoutMs + 1000;
const budgetMs = boundMs + 4000;

let t: TestServer;
let rx: Receiver;
// Registered before the server's hooks: the receiver starts before the server and closes after it.
beforeAll(async () => {
  rx = await Receiver.start();
});
afterAll(() => rx?.close());
useTestServer(
  { WEBHOOK_TIMEOUT_MS: String(timeoutMs), WEBHOOK_CONCURRENCY: '8', WEBHOOK_POLL_INTERVAL_MS: '100' },
  (started) => {
    t = started;
  },
);

/** Resolves with how long after `since` the receiver first got a request matching `match`. */
async function arrivalAfter(since: number, match: () => boolean, what: string): Promise<number> {
  await rx.waitFor(match, budgetMs, what);
  return Date.now() - since;
}

describe('webhook delivery is fair across workspaces', () => {
  it(`delivers workspace B's event, a test send and a manual retry within seconds while A has ${backlog} failing deliveries pending`, async () => {
    const a = await workspaceWithEndpointAt(t, rx, 'a-hangs');
    rx.url('a-hangs', () => ({ hang: true }));
    const aHealthy = await a.gc.webhooks.create({ url: rx.url('a-healthy') });

    // A's backlog, enqueued in one statement the way the outbox fan-out enqueues.
    const ids = await withDb(t.databaseUrl, async (db) => {
      const events = Array.from({ length: backlog }, () => randomUUID());
      const { rows } = await db.query<{ id: string; webhook_event_id: string }>(
        `with d as (
           insert into webhook_delivery (id, endpoint_id, workspace_id, webhook_event_id, event_type, body, status, next_attempt_at)
           select gen_random_uuid(), $1, $2, x.id, 'event.published', json_build_object('id', x.id)::text, 'pending', now()
           from unnest($3::uuid[]) as x(id)
           returning id, workspace_id, webhook_event_id
         ), q as (select count(*) from ${addJobsSql('select id, workspace_id from d')})
         select d.id, d.webhook_event_id from d, q`,
        [a.ep.id, a.workspaceId, events],
      );
      return rows;
    });
    // Every worker slot is taken by A's hanging attempts.
    await rx.waitFor(() => rx.to('a-hangs').length >= 8, eventBudgetMs, "A's attempts in flight");

    const b = await workspaceWithEndpointAt(t, rx, 'b', ['event.published']);
    const bSince = Date.now();
    await eventIn(b.gc, 'scheduled');
    const bMs = await arrivalAfter(bSince, () => rx.to('b').length === 1, "B's delivery");

    const testSince = Date.now();
    await a.gc.webhooks.test(aHealthy.id, {});
    const testMs = await arrivalAfter(testSince, () => rx.to('a-healthy').length === 1, "A's test send");

    // A manual retry of the last delivery of A's own backlog jumps the queue too.
    const last = ids[ids.length - 1]!;
    const retrySince = Date.now();
    await a.gc.webhooks.retryDelivery(a.ep.id, last.id);
    const retryMs = await arrivalAfter(
      retrySince,
      () => rx.to('a-hangs').some((r) => r.headers['x-gc-event-id'] === last.webhook_event_id),
      'the manual retry',
    );

    const attemptedOfA = rx.to('a-hangs').length;
    for (const ms of [bMs, testMs, retryMs]) expect(ms).toBeLessThan(budgetMs);
    if (process.env.SHOW_FAIRNESS) console.info({ bMs, testMs, retryMs, attemptedOfA });
    // A's backlog was nowhere near drained: the others did not wait for it.
    expect(attemptedOfA).toBeLessThan(backlog / 4);

    await a.gc.webhooks.delete(a.ep.id);
  }, 90_000);
});
