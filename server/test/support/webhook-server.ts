import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@gathercast/contract';
import { afterAll, beforeAll } from 'vitest';
import type { RecordedDomainEvent } from '../../src/lib/domain-events';
import { Receiver } from './receiver';
import { startTestServer, type TestServer } from './server';

/**
 * Records a domain event on the server's bus in its own transaction, the way a domain does inside
 * its change. With `rollback`, the transaction fails after `bus.record` and is rolled back.
 */
export async function recordEvent(
  t: TestServer,
  input: { type: WebhookEventType; workspaceId: string; eventId?: string; data?: Record<string, unknown> },
  options: { rollback?: boolean } = {},
): Promise<RecordedDomainEvent> {
  const { orm, bus } = t.server.ctx;
  let recorded: RecordedDomainEvent | undefined;
  try {
    await orm.em.fork().transactional(async (tx) => {
      recorded = await bus.record(tx, { ...input, eventId: input.eventId ?? randomUUID() });
      if (options.rollback) throw new RolledBack();
    });
  } catch (err) {
    if (!(err instanceof RolledBack)) throw err;
  }
  return recorded!;
}

class RolledBack extends Error {}

/** Test-only knobs: retries in milliseconds, fast polling and sweeping. */
export const fastWebhookEnv = {
  WEBHOOK_RETRY_SCHEDULE_MS: '50,50,50,50,50,50,50,50,50,50',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_SWEEP_INTERVAL_MS: '500',
  WEBHOOK_CONCURRENCY: '8',
};

export function applyFastWebhookEnv(): void {
  Object.assign(process.env, fastWebhookEnv);
}

/**
 * A test file's server with the fast webhook settings and a receiver for its deliveries, started
 * before the file's tests and stopped after them; `ready` runs once both are up. Webhook settings
 * are read from the process environment, so `webhookEnv` (more WEBHOOK_* knobs) is applied there;
 * `serverEnv` is the server's own configuration.
 */
export function useWebhookTestServer(
  ready: (started: { t: TestServer; rx: Receiver }) => void | Promise<void>,
  options: { webhookEnv?: Record<string, string>; serverEnv?: Record<string, string> } = {},
): void {
  let t: TestServer | undefined;
  let rx: Receiver | undefined;
  // The process environment as it was: the next test file in this worker must not inherit the knobs.
  const saved = { ...process.env };
  beforeAll(async () => {
    applyFastWebhookEnv();
    Object.assign(process.env, options.webhookEnv);
    rx = await Receiver.start();
    t = await startTestServer(options.serverEnv);
    await ready({ t, rx });
  });
  afterAll(async () => {
    await t?.close();
    await rx?.close();
    process.env = saved;
  });
}
