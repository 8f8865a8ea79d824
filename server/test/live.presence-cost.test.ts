import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../src/db/sql';
import { joinGroupParams, joinGroupSql } from '../src/live/backends/presence-pg';
import type { PresenceInfo } from '../src/live/presence-store';
import { createTestDatabase } from './support/database';
import { createWorkspace, withDb } from './support/fixtures';
import { scansOf } from './support/plans';

/**
 * A join costs O(1) in the audience size, in the database too: a join group's presence statement
 * probes the rows of its own participants only, however many are already watching. (Merged with
 * every row of the event, each group of a 10,000-viewer storm read the whole audience so far.)
 */
let databaseUrl: string;
let eventId: string;
const audience = 2000;
beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  const ws = await createWorkspace(databaseUrl);
  eventId = randomUUID();
  await withDb(databaseUrl, async (db) => {
    await db.query(
      `insert into event (id, workspace_id, type, title) values ($1, $2, 'broadcast', 'Launch')`,
      [eventId, ws.workspaceId],
    );
    await db.query(
      `insert into live_presence (event_id, participant_id, process_id, connections, info, expires_at)
       select $1, 'anon_' || n, $3, 1, '{}', now() + interval '30 seconds' from generate_series(1, $2) n`,
      [eventId, audience, randomUUID()],
    );
    await db.query('analyze live_presence');
  });
});

const viewer = (participantId: string): PresenceInfo => ({
  participantId,
  userId: null,
  name: null,
  role: 'viewer',
  eventRole: 'viewer',
  anonymous: true,
});

describe('a join group in the database', () => {
  it(`reads one presence row at most per joining participant, with ${audience} already present`, async () => {
    // Ten newcomers and ten who are present on another process already.
    const group = [
      ...Array.from({ length: 10 }, () => viewer(`anon_${randomUUID()}`)),
      ...Array.from({ length: 10 }, (_, i) => viewer(`anon_${i + 1}`)),
    ];
    const { read, firsts } = await withDb(databaseUrl, async (db) => {
      await db.query('begin');
      try {
        const params = joinGroupParams(eventId, randomUUID(), 30_000, group);
        const rowsRead = (await scansOf(db, joinGroupSql, params, 'live_presence')).reduce(
          (sum, n) => sum + n['Actual Rows'] * n['Actual Loops'],
          0,
        );
        await db.query('rollback');
        await db.query('begin');
        const rows = await sql<{ participant_id: string }>(db, joinGroupSql, params);
        return { read: rowsRead, firsts: rows.map((r) => r.participant_id) };
      } finally {
        await db.query('rollback');
      }
    });
    expect(read).toBeLessThanOrEqual(group.length);
    // And it still tells the newcomers from those present elsewhere.
    expect(firsts.sort()).toEqual(
      group
        .slice(0, 10)
        .map((g) => g.participantId)
        .sort(),
    );
  });
});
