import { describe, expect, it } from 'vitest';
import { waitUntil } from './support/budgets';
import { withDb } from './support/fixtures';
import type { Receiver } from './support/receiver';
import type { TestServer } from './support/server';
import { createWorkspaceWithKey } from './support/webhook-fixtures';
import { recordEvent, useWebhookTestServer } from './support/webhook-server';

/*
 * Recording an attempt can be the statement PostgreSQL aborts to break a lock cycle (an endpoint being
 * deleted takes the same delivery, endpoint and job rows the other way round). The attempt already
 * reached the receiver: the record is written once all the same, and the delivery is not sent again.
 * The abort is injected here: a trigger on the attempt log raises deadlock_detected, once, on the first
 * row of one endpoint.
 */
let t: TestServer;
let rx: Receiver;
let apiKey: string;
let workspaceId: string;

useWebhookTestServer(async (started) => {
  ({ t, rx } = started);
  ({ apiKey, workspaceId } = await createWorkspaceWithKey(t.databaseUrl));
});

/** Makes the next attempt record of `endpointId` fail as a deadlock victim would, once. */
const abortFirstRecordOf = (endpointId: string) =>
  withDb(t.databaseUrl, async (db) => {
    await db.query('create sequence deadlock_once');
    await db.query(`
      create function deadlock_once() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from webhook_delivery where id = new.delivery_id and endpoint_id = '${endpointId}') then
          if nextval('deadlock_once') = 1 then
            raise exception 'deadlock detected (injected)' using errcode = 'deadlock_detected';
          end if;
        end if;
        return new;
      end $$`);
    await db.query(
      'create trigger deadlock_once before insert on webhook_attempt for each row execute function deadlock_once()',
    );
  });

describe('webhook attempts aborted as a deadlock victim', () => {
  it('records the attempt once and does not send the delivery again', async () => {
    const gc = t.client({ apiKey });
    const ep = await gc.webhooks.create({ url: rx.url('victim') });
    await abortFirstRecordOf(ep.id);
    await recordEvent(t, { type: 'event.published', workspaceId });

    let delivery: Awaited<ReturnType<typeof gc.webhooks.listDeliveries>>['deliveries'][number] | undefined;
    await waitUntil(async () => {
      [delivery] = (await gc.webhooks.listDeliveries(ep.id, {})).deliveries;
      return delivery?.status === 'succeeded';
    }, 'the delivery succeeded');
    const injected = await withDb(t.databaseUrl, (db) => db.query('select last_value from deadlock_once'));
    // Aborted once, written by the second run of the statement.
    expect(Number(injected.rows[0].last_value)).toBe(2);
    expect(delivery!.attempts).toHaveLength(1);
    expect(rx.to('victim')).toHaveLength(1);
  });
});
