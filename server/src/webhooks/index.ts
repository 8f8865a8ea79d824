import type { AppContext } from '../lib/context';
import { trackWebhookQueue } from '../lib/metrics';
import { fanOut, fanOutMany } from './queue';
import { webhookSettings } from './settings';
import { type OtherJobs, WebhookWorker } from './worker';

export interface Webhooks {
  worker: WebhookWorker;
  /** Stops the delivery worker (running attempts finish first). Call before the ORM closes. */
  stop(): Promise<void>;
}

/**
 * Wires the webhooks domain: the outbox subscriber on the bus (deliveries written in the
 * transaction of each change) and the delivery worker, whose runner also takes `otherJobs` (emails, retention). Returns the handle the server stops on SIGTERM.
 */
export async function startWebhooks(ctx: AppContext, databaseUrl: string, otherJobs?: OtherJobs): Promise<Webhooks> {
  const settings = webhookSettings(ctx.config);
  ctx.bus.subscribe(
    async (tx, event) => {
      await fanOut(tx, event);
    },
    async (tx, events) => {
      await fanOutMany(tx, events);
    },
  );
  const worker = new WebhookWorker(databaseUrl, settings, ctx.logger, ctx.foreground, otherJobs);
  await worker.start();
  const untrackQueue = trackWebhookQueue(async () => {
    const { rows } = await ctx.pool.query<{ n: string }>(
      "select count(*) as n from webhook_delivery where status = 'pending'",
    );
    return Number(rows[0]?.n ?? 0);
  });
  return {
    worker,
    stop: async () => {
      untrackQueue();
      await worker.stop();
    },
  };
}

