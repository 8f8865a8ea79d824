import { setTimeout as delay } from 'node:timers/promises';
import { createClient } from '@gathercast/sdk';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventBudgetMs } from './support/budgets';
import { createTestDatabase } from './support/database';
import { eventIn } from './support/events';
import { ChildServer } from './support/process';
import { Receiver } from './support/receiver';
import { eventually } from './support/wait';
import { createWorkspaceWithKey } from './support/webhook-fixtures';

/**
 * A join storm cut by SIGKILL: viewers join a live broadcast on a server child process that is killed
 * once some of them are in. Joins are written in groups (presence rows and participant.joined outbox
 * rows in one transaction), so every join the database kept has its one webhook, delivered after the
 * restart, and no viewer gets two participant.joined with different ids.
 */
const viewers = 150;
const killAfter = 60;

let databaseUrl: string;
let rx: Receiver;
let db: pg.Client;
let server: ChildServer | undefined;
let url: string;

const savedRedisUrl = process.env.REDIS_URL;
beforeAll(async () => {
  // Presence in PostgreSQL (the child inherits this environment): it commits with the outbox rows.
  delete process.env.REDIS_URL;
  databaseUrl = await createTestDatabase();
  rx = await Receiver.start();
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  server = await ChildServer.start(databaseUrl);
  url = server.url;
}, 120_000);

afterAll(async () => {
  await server?.kill();
  await db?.end();
  await rx?.close();
  if (savedRedisUrl !== undefined) process.env.REDIS_URL = savedRedisUrl;
});

/**
 * One anonymous viewer's socket: its participantId (from welcome) and whether its join was committed;
 * `onCounted` is called when it is.
 */
function openViewer(socketUrl: string, onCounted: () => void) {
  const state = { participantId: '', counted: false };
  const ws = new WebSocket(socketUrl);
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as { type: string; identity?: { participantId: string } };
    if (m.type === 'welcome') {
      state.participantId = m.identity!.participantId;
      // A socket's messages are handled once its join is written: the pong says it was committed.
      ws.send(JSON.stringify({ type: 'ping' }));
    }
    if (m.type === 'pong') {
      state.counted = true;
      onCounted();
    }
  });
  ws.on('error', () => {});
  return { state, ws };
}

/** Resolves as `event` does, or fails with `what()` once the event budget has passed. */
async function withinBudget(event: Promise<void>, what: () => string): Promise<void> {
  const budget = new AbortController();
  const timedOut = delay(eventBudgetMs, undefined, { signal: budget.signal }).then(() => {
    throw new Error(what());
  });
  await Promise.race([event, timedOut]).finally(() => budget.abort());
}

describe('live joins under a crash', () => {
  it('keeps one participant.joined webhook for every committed join when the server is SIGKILLed mid-storm', async () => {
    const { apiKey } = await createWorkspaceWithKey(databaseUrl);
    const gc = createClient({ baseUrl: url, apiKey, maxRetries: 0 });
    await gc.webhooks.create({ url: rx.url('joins'), eventTypes: ['participant.joined'] });
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast' }], { visibility: 'public' });
    const anonymous = createClient({ baseUrl: url, maxRetries: 0 });
    const tokens = await Promise.all(
      Array.from({ length: viewers }, () => anonymous.gateway.token({ eventId: event.id })),
    );

    // The kill comes as the killAfter-th join is counted, while the rest of the crowd is still joining.
    let joinsCounted = 0;
    let enoughJoined!: () => void;
    const killPoint = new Promise<void>((resolve) => {
      enoughJoined = resolve;
    });
    const crowd = tokens.map((t) => openViewer(t.url, () => ++joinsCounted === killAfter && enoughJoined()));
    await withinBudget(killPoint, () => `viewers did not join: ${joinsCounted} of ${killAfter} counted`);
    await server!.kill();
    for (const v of crowd) v.ws.terminate();

    const committed = new Set(
      (
        await db.query<{ participant_id: string }>(
          'select participant_id from live_presence where event_id = $1',
          [event.id],
        )
      ).rows.map((r) => r.participant_id),
    );
    const counted = crowd.filter((v) => v.state.counted).map((v) => v.state.participantId);
    expect(committed.size).toBeGreaterThanOrEqual(killAfter);
    for (const id of counted) expect(committed).toContain(id);

    // Grouped: fewer transactions than joins (rows written by one transaction share its xmin).
    const outbox = (
      await db.query<{ participant_id: string; tx: string }>(
        `select payload->>'participantId' as participant_id, xmin::text as tx
           from domain_event where event_id = $1 and type = 'participant.joined'`,
        [event.id],
      )
    ).rows;
    expect(new Set(outbox.map((r) => r.participant_id))).toEqual(committed);
    expect(outbox).toHaveLength(committed.size);
    expect(new Set(outbox.map((r) => r.tx)).size).toBeLessThan(outbox.length);

    // The restarted server delivers what the killed one committed: one id per committed viewer.
    await server!.restart();
    const idsOf = () => {
      const ids = new Map<string, Set<string>>();
      for (const r of rx.requests) {
        const body = JSON.parse(r.body) as { id: string; participantId: string };
        ids.set(body.participantId, (ids.get(body.participantId) ?? new Set()).add(body.id));
      }
      return ids;
    };
    const ids = await eventually(
      async () => idsOf(),
      (got) => [...committed].every((id) => got.has(id)),
    );
    expect(new Set(ids.keys())).toEqual(committed);
    for (const [participantId, set] of ids)
      expect({ participantId, ids: set.size }).toEqual({ participantId, ids: 1 });
  }, 240_000);
});
