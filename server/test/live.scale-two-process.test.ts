import { createClient, LiveConnection, type WebSocketConstructor } from '@gathercast/sdk';
import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { presenceKeys } from '../src/live/backends/presence-redis-layout';
import type { RunningServer } from '../src/server';
import { eventBudgetMs, waitUntil } from './support/budgets';
import { createTestDatabase } from './support/database';
import { eventIn } from './support/events';
import { createWorkspace } from './support/fixtures';
import { LiveClient, recorded, startReplica, tokenFor } from './support/live';
import { ChildServer } from './support/process';
import { testRedisUrl } from './support/redis';

/*
 * One audience on two processes, at suite scale: 200 viewers (the SDK's LiveConnection, automatic
 * reconnect with its default backoff) on each of two server processes sharing one database, with and
 * without Redis. One host message reaches everyone, both processes count the same audience, and when
 * one process is SIGKILLed its viewers are back on the other within 10 s, counted once, and presence
 * fires no participant.left and no second participant.joined for them (they never left: they resumed).
 * The full 2 x 5,000 belongs to bench/live (--scenario failover). 200 a process, not more: the 10 s
 * bound holds for the test's own resumes, and a run with 300 beside a machine at load 12 took 18 s.
 */
const redisUrl = testRedisUrl();
const perProcess = 200;
/** Viewers joining at once (as a page's audience arrives: many at a time, not all in one instant). */
const joiningAtOnce = 25;
const backWithinMs = 10_000;

interface Viewer {
  live: LiveConnection;
  participantId: string;
  chats: string[];
  /** The last audience total this viewer was sent. */
  total: number;
  /** When it was back after a lost socket (resumed, or reset to a fresh state), ms since the epoch. */
  backAt: number | undefined;
}

async function viewer(url: () => string): Promise<Viewer> {
  const live = await LiveConnection.open(url, {
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    // Joining hundreds at once on a loaded 2-core machine: the welcome may take a while.
    timeoutMs: eventBudgetMs,
  });
  const v: Viewer = { live, participantId: live.welcome.identity.participantId, chats: [], total: 0, backAt: undefined };
  live.on('chat.message', (m) => v.chats.push(m.text));
  live.on('audience', (m) => {
    v.total = m.total;
  });
  live.on('resumed', () => {
    v.backAt = Date.now();
  });
  live.on('reset', () => {
    v.backAt = Date.now();
  });
  return v;
}

async function crowd(count: number, open: () => Promise<Viewer>): Promise<Viewer[]> {
  const viewers: Viewer[] = [];
  const worker = async () => {
    while (viewers.length < count) {
      const slot = viewers.length;
      viewers.push(undefined as unknown as Viewer);
      viewers[slot] = await open();
    }
  };
  await Promise.all(Array.from({ length: joiningAtOnce }, worker));
  return viewers;
}

/** participant.joined / participant.left outbox rows per participant of the event. */
async function presenceWebhooks(databaseUrl: string, eventId: string) {
  const tally = async (type: string) => {
    const counts = new Map<string, number>();
    for (const p of await recorded(databaseUrl, eventId, type)) {
      const id = String(p.participantId);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  };
  return { joined: await tally('participant.joined'), left: await tally('participant.left') };
}

/** Whether the killed process's presence entries are gone (swept by the survivor), whatever the backend. */
async function onlyOneProcessPresent(databaseUrl: string, redis: boolean): Promise<boolean> {
  const database = new URL(databaseUrl).pathname.slice(1);
  if (redis) {
    const client = new Redis(redisUrl);
    try {
      return (await client.scard(presenceKeys(database).procs)) === 1;
    } finally {
      client.disconnect();
    }
  }
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: number }>(
      'select count(distinct process_id)::int as n from live_presence',
    );
    return rows[0]!.n === 1;
  } finally {
    await db.end();
  }
}

describe.each([
  ['PostgreSQL', { REDIS_URL: '' }],
  ['Redis', { REDIS_URL: redisUrl }],
])('one audience on two processes (%s)', (backend, env) => {
  it(`reaches and counts ${2 * perProcess} viewers on both, and takes over a SIGKILLed process's viewers within 10 s`, async () => {
    const databaseUrl = await createTestDatabase();
    const b: RunningServer = await startReplica(databaseUrl, env);
    let a: ChildServer | undefined;
    const everyone: Viewer[] = [];
    try {
      a = await ChildServer.start(databaseUrl, env);
      const gc = createClient({ baseUrl: b.url, apiKey: (await createWorkspace(databaseUrl)).apiKey });
      const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
      const host = await LiveClient.join(b, await tokenFor(b, event.id, { role: 'host' }));
      const [wsA, wsB] = [a.url, b.url].map((u) => `${u.replace('http', 'ws')}/v1/live`);
      // The load balancer: A while it lives, B after.
      let aAlive = true;
      const anonymous = () => tokenFor(b, event.id, { role: 'viewer', anonymous: true });
      const onA = await crowd(perProcess, async () => {
        const token = await anonymous();
        return viewer(() => `${aAlive ? wsA : wsB}?token=${token}`);
      });
      const onB = await crowd(perProcess, async () => {
        const token = await anonymous();
        return viewer(() => `${wsB}?token=${token}`);
      });
      everyone.push(...onA, ...onB);
      const audience = 2 * perProcess + 1;

      // Both processes count everyone (the viewers and the host), each for its own sockets.
      await waitUntil(() => everyone.every((v) => v.total === audience), `every viewer counts ${audience}`);
      host.send({ type: 'chat.send', text: 'Welcome, everyone' });
      await waitUntil(
        () => everyone.every((v) => v.chats.includes('Welcome, everyone')),
        'the host message reaches every viewer on both processes',
      );

      const killedAt = Date.now();
      aAlive = false;
      await a.kill();
      await waitUntil(() => onA.every((v) => v.backAt !== undefined), "A's viewers are back on B");
      const slowest = Math.max(...onA.map((v) => v.backAt! - killedAt));
      expect(slowest, `the last of A's viewers was back after ${slowest} ms`).toBeLessThanOrEqual(backWithinMs);

      host.send({ type: 'chat.send', text: 'Still here?' });
      await waitUntil(
        () => everyone.every((v) => v.chats.includes('Still here?')),
        'a host message after the kill reaches every viewer',
      );
      // A's entries expire (it stopped renewing them) and B sweeps them: that must not look like leaving.
      await waitUntil(
        () => onlyOneProcessPresent(databaseUrl, backend === 'Redis'),
        "the killed process's presence entries are swept",
        eventBudgetMs + 40_000,
      );
      await waitUntil(() => everyone.every((v) => v.total === audience), `the count converges on ${audience}`);
      const webhooks = await presenceWebhooks(databaseUrl, event.id);
      for (const v of everyone) {
        expect(webhooks.joined.get(v.participantId), `${v.participantId} joined`).toBe(1);
        expect(webhooks.left.get(v.participantId), `${v.participantId} left`).toBeUndefined();
      }
      expect(host.all('presence.left')).toEqual([]);
      await host.close();
    } finally {
      await Promise.all(everyone.map((v) => v.live.close()));
      await a?.kill();
      await b.close();
    }
  }, 300_000);
});
