import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { repeatedRaceBudgetMs, waitUntil } from './support/budgets';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';
import type { TestServer } from './support/server';

/**
 * A crowd leaving at once (the end of a webinar): every viewer's participant.left is recorded exactly
 * once, and the leaves are written in groups, fewer commits than viewers, so a crowd's leaves cannot
 * exhaust the connection pool and lose their webhooks.
 */
const viewers = 120;

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

describe('a crowd leaving at once', () => {
  it(
    'records one participant.left per viewer, in fewer commits than viewers',
    async () => {
      const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }], {
        visibility: 'public',
      });
      const crowd = await Promise.all(
        Array.from({ length: viewers }, async () =>
          LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true })),
        ),
      );
      await Promise.all(crowd.map((c) => c.close()));

      const lefts = () =>
        withDb(t.databaseUrl, async (db) => {
          const { rows } = await db.query<{ participant_id: string; tx: string }>(
            `select payload->>'participantId' as participant_id, xmin::text as tx
               from domain_event where event_id = $1 and type = 'participant.left'`,
            [event.id],
          );
          return rows;
        });
      await waitUntil(async () => (await lefts()).length >= viewers, 'every viewer has left');
      const rows = await lefts();
      expect(rows).toHaveLength(viewers);
      expect(new Set(rows.map((r) => r.participant_id)).size).toBe(viewers);
      expect(new Set(rows.map((r) => r.tx)).size).toBeLessThan(viewers);
    },
    repeatedRaceBudgetMs,
  );
});
