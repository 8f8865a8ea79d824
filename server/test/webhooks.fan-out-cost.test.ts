import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addJobsSql } from '../src/webhooks/queue';
import { createWorkspace, withDb } from './support/fixtures';
import { useTestServer } from './support/hooks';
import { scansOf } from './support/plans';
import type { TestServer } from './support/server';

/**
 * The outbox fan-out of a join storm enqueues hundreds of deliveries in one statement. Their job
 * priorities need each workspace's pending count (see the fairness rule in webhooks/queue.ts): read
 * once per workspace and statement, not once per delivery, or a group of 200 joins pays 200 counts
 * of up to 1,000 index entries each.
 */
let t: TestServer;
// The server's delivery worker installs graphile-worker's schema, which the fan-out writes to.
useTestServer({}, (started) => {
  t = started;
});

describe('the outbox fan-out of many events', () => {
  it("reads each workspace's pending deliveries once per statement, however many deliveries it enqueues", async () => {
    const workspaces = [await createWorkspace(t.databaseUrl), await createWorkspace(t.databaseUrl)];
    const perWorkspace = 100;
    const loops = await withDb(t.databaseUrl, async (db) => {
      await db.query('begin');
      try {
        const endpoints = [];
        for (const ws of workspaces) {
          const { rows } = await db.query<{ id: string }>(
            `insert into webhook_endpoint (id, workspace_id, url, secret) values ($1, $2, 'https://example.com/hook', 's')
             returning id`,
            [randomUUID(), ws.workspaceId],
          );
          endpoints.push({ endpointId: rows[0]!.id, workspaceId: ws.workspaceId });
        }
        const deliveries = endpoints.flatMap((e) => Array.from({ length: perWorkspace }, () => e));
        const fanOut = `with d as (
             insert into webhook_delivery (id, endpoint_id, workspace_id, webhook_event_id, event_type, body, status, next_attempt_at)
             select gen_random_uuid(), x.endpoint_id, x.workspace_id, gen_random_uuid(), 'participant.joined', '{}', 'pending', now()
             from jsonb_to_recordset(?::jsonb) as x(endpoint_id uuid, workspace_id uuid)
             returning id, workspace_id
           )
           select count(*) from ${addJobsSql('select id, workspace_id from d')}`;
        const deliveryRows = deliveries.map((d) => ({
          endpoint_id: d.endpointId,
          workspace_id: d.workspaceId,
        }));
        // Reads of webhook_delivery other than the insert itself: the pending counts.
        const scans = await scansOf(db, fanOut, [JSON.stringify(deliveryRows)], 'webhook_delivery');
        return scans.reduce((sum, n) => sum + n['Actual Loops'], 0);
      } finally {
        await db.query('rollback');
      }
    });
    expect(loops).toBe(workspaces.length);
  });
});
