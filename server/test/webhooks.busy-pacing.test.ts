import { eventBudgetMs } from './support/budgets';
import { describe, expect, it } from 'vitest';
import type { Receiver } from './support/receiver';
import type { TestServer } from './support/server';
import { createWorkspaceWithKey } from './support/webhook-fixtures';
import { recordEvent, useWebhookTestServer } from './support/webhook-server';

/*
 * While the process serves a burst someone waits on (a crowd joining a live event), webhook attempts
 * start at most WEBHOOK_BUSY_RATE a second; once it passes they go at full concurrency again. The
 * burst is reported here the way the live gateway reports each join.
 */
const busyRate = 2;
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
  { webhookEnv: { WEBHOOK_BUSY_RATE: String(busyRate) } },
);

describe('webhook delivery during a burst', () => {
  it('starts attempts at the busy rate while the process is busy, and delivers the rest once it is not', async () => {
    await gc.webhooks.create({ body: { url: rx.url('paced'), eventTypes: ['participant.joined'] } });
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
      await new Promise((r) => setTimeout(r, 1000));
      // Nothing arrives before it started: by now at most one attempt plus one per 1/busyRate s began.
      const seconds = (Date.now() - started) / 1000;
      expect(rx.to('paced').length).toBeLessThanOrEqual(1 + Math.ceil(seconds * busyRate));
      expect(rx.to('paced').length).toBeLessThan(12);
    } finally {
      clearInterval(storm);
    }
    await rx.waitFor(() => rx.to('paced').length === 12, eventBudgetMs, 'the rest after the burst');
  });
});
