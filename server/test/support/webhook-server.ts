import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@gathercast/contract';
import type { RecordedDomainEvent } from '../../src/lib/domain-events';
import type { TestServer } from './server';

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
