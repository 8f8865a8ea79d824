import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { eventBudgetMs } from './support/budgets';
import type { Receiver } from './support/receiver';
import type { TestServer } from './support/server';
import { createWorkspaceWithKey } from './support/webhook-fixtures';
import { recordEvent, useWebhookTestServer } from './support/webhook-server';

/*
 * While the process serves a burst someone waits on (a crowd joining a live event), webhook attempts
 * start at most WEBHOOK_BUSY_RATE a second; for WEBHOOK_CATCH_UP_MS after it at most
 * WEBHOOK_CATCH_UP_CONCURRENCY run at once; then they go at full concurrency again. The burst is
 * reported here the way the live gateway reports each join.
 */
const busyRate = 2;
const catchUpConcurrency = 2;
const catchUpMs = 5000;
/** How long the receiver holds each answer: attempts in flight at once overlap by this much. */
const answerMs = 150;
let t: TestServer;
let rx: Receiver;
let workspaceId: string;
let gc: ReturnType<TestServer['client']>;

useWebhookTestServer(
  async (started) => {
    ({ t, rx } = started);
    let apiKey: string;
    ({ apiKey, workspaceId } = await createWorkspaceWithKey(t.databaseUrl));
    gc = t.client({ apiKey });
  },
  {
    webhookEnv: {
      WEBHOOK_BUSY_RATE: String(busyRate),
      WEBHOOK_CATCH_UP_CONCURRENCY: String(catchUpConcurrency),
      WEBHOOK_CATCH_UP_MS: String(catchUpMs),
    },
  },
);

/** The most requests the receiver held at once (each from its arrival until its answer). */
function mostAtOnce(name: string): number {
  const arrivals = rx.to(name).map((r) => r.receivedAt);
  return Math.max(0, ...arrivals.map((a) => arrivals.filter((b) => b <= a && a < b + answerMs).length));
}

/** The workspace's one endpoint from now on: `name`, answering each request after `answerMs`. */
async function onlyEndpoint(name: string): Promise<void> {
  for (const old of (await gc.webhooks.list()).webhooks) await gc.webhooks.delete(old.id);
  await gc.webhooks.create({
    url: rx.url(name, () => ({ delayMs: answerMs })),
    eventTypes: ['participant.joined'],
  });
}

/** `n` viewers join (their participant.joined recorded), and every delivery reaches `name`. */
async function joinsFor(name: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    await recordEvent(t, {
      type: 'participant.joined',
      workspaceId,
      data: { participantId: `anon:${name}-${i}`, anonymous: true, role: 'viewer' },
    });
  await rx.waitFor(() => rx.to(name).length === n, eventBudgetMs, `${name}: all delivered`);
}

describe('webhook delivery during a burst', () => {
  it('runs attempts at full concurrency when the process has not been busy', async () => {
    await onlyEndpoint('calm');
    await joinsFor('calm', 12);
    expect(mostAtOnce('calm')).toBeGreaterThan(catchUpConcurrency);
  });

  it('starts attempts at the busy rate while the process is busy, and delivers the rest once it is not', async () => {
    await onlyEndpoint('paced');
    // A join storm's worth of units every 50 ms keeps the process busy for as long as it lasts.
    const storm = setInterval(() => t.server.ctx.foreground.note(100), 50);
    try {
      t.server.ctx.foreground.note(100);
      const started = Date.now();
      for (let i = 0; i < 12; i++)
        await recordEvent(t, {
          type: 'participant.joined',
          workspaceId,
          data: { participantId: `anon:${i}`, anonymous: true, role: 'viewer' },
        });
      await rx.waitFor(() => rx.to('paced').length >= 2, eventBudgetMs, 'deliveries while busy');
      // A second of the busy rate: the pace over elapsed time is the subject, not a wait for something.
      await delay(1000);
      // Nothing arrives before it started: by now at most one attempt plus one per 1/busyRate s began.
      const seconds = (Date.now() - started) / 1000;
      expect(rx.to('paced').length).toBeLessThanOrEqual(1 + Math.ceil(seconds * busyRate));
      expect(rx.to('paced').length).toBeLessThan(12);
    } finally {
      clearInterval(storm);
    }
    await rx.waitFor(() => rx.to('paced').length === 12, eventBudgetMs, 'the rest after the burst');
  });

  it('runs at most WEBHOOK_CATCH_UP_CONCURRENCY attempts at once after a burst, and all of them again once WEBHOOK_CATCH_UP_MS passed', async () => {
    await onlyEndpoint('catching-up');
    t.server.ctx.foreground.note(100);
    const burstAt = Date.now();
    await joinsFor('catching-up', 12);
    expect(Date.now() - burstAt).toBeLessThan(catchUpMs);
    expect(mostAtOnce('catching-up')).toBeLessThanOrEqual(catchUpConcurrency);

    await onlyEndpoint('caught-up');
    // WEBHOOK_CATCH_UP_MS runs out: its expiry is the subject, not a wait for something.
    await delay(Math.max(0, catchUpMs - (Date.now() - burstAt)) + 200);
    await joinsFor('caught-up', 12);
    expect(mostAtOnce('caught-up')).toBeGreaterThan(catchUpConcurrency);
  });
});
