import { randomUUID } from 'node:crypto';
import { createClient, type GathercastClient } from '@gathercast/sdk';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisPresenceStore } from '../src/live/backends/presence-redis';
import { presenceKeys } from '../src/live/backends/presence-redis-layout';
import type { PresenceJoin } from '../src/live/presence-store';
import type { RunningServer } from '../src/server';
import { createTestDatabase } from './support/database';
import { eventIn } from './support/events';
import { createWorkspace, withDb } from './support/fixtures';
import { liveBackends, useTwoProcesses } from './support/hooks';
import { eventually, LiveClient, startReplica, tokenFor } from './support/live';

/**
 * A join counts in presence only if its participant.joined (when it is the first) committed with it.
 * With presence in PostgreSQL the two share a transaction; with Redis the join is decided before the
 * transaction, so its end settles it: a failed transaction undoes the join, and a process that died in
 * between leaves the join marked unsettled for the sweep, which asks the database what committed.
 */

const webhooks = (databaseUrl: string, eventId: string) =>
  withDb(databaseUrl, async (db) => {
    const { rows } = await db.query<{ id: string; type: string; participant_id: string }>(
      `select id, type, payload->>'participantId' as participant_id
         from domain_event where event_id = $1 and type like 'participant.%' order by occurred_at, id`,
      [eventId],
    );
    return rows;
  });

const participantOf = (client: LiveClient) => client.all('welcome')[0]!.identity.participantId;

/** The host's page of who is present (moderators list the audience over their socket). */
async function presentIds(host: LiveClient, requestId: string): Promise<string[]> {
  host.send({ type: 'audience.list', limit: 100, requestId });
  const page = await host.next('audience.page', (m) => m.requestId === requestId);
  return page.participants.map((p) => p.participantId);
}

const redisEnv = liveBackends.find(([backend]) => backend === 'Redis')![1];

/**
 * A server process that decides joins and then crashes: the real Redis store under a process id of its
 * own. `expire()` is what its liveness key's TTL does once it stops renewing it, at the moment the test
 * chooses (a short TTL would race the test's own steps on a loaded machine).
 */
async function crashingProcess(databaseUrl: string) {
  const namespace = new URL(databaseUrl).pathname.slice(1);
  const processId = randomUUID();
  const store = new RedisPresenceStore(
    redisEnv.REDIS_URL!,
    processId,
    { heartbeatMs: 60_000, ttlMs: 60_000 },
    pino({ level: 'silent' }),
    namespace,
  );
  await store.start();
  const expire = async () => {
    const redis = new Redis(redisEnv.REDIS_URL!);
    await redis.del(presenceKeys(namespace).proc(processId));
    redis.disconnect();
  };
  return { store, expire };
}

/** A speaker's join, with the id its participant.joined gets if it is the first. */
const joinOf = (userId: string = randomUUID()): PresenceJoin => ({
  webhookId: randomUUID(),
  info: {
    participantId: `user:${userId}`,
    userId,
    name: null,
    role: 'speaker',
    eventRole: 'speaker',
    anonymous: false,
  },
});

/** What the join's transaction committed before the crash: its participant.joined outbox row. */
const commitJoined = (databaseUrl: string, eventId: string, join: PresenceJoin) =>
  withDb(databaseUrl, (db) =>
    db.query(
      `insert into domain_event (id, type, workspace_id, event_id, payload, occurred_at)
       select $1, 'participant.joined', workspace_id, id, $2, now() from event where id = $3`,
      [join.webhookId, JSON.stringify({ participantId: join.info.participantId }), eventId],
    ),
  );

describe.each(liveBackends)('a join whose transaction does not commit (%s)', (_backend, env) => {
  let a: RunningServer;
  let databaseUrl: string;
  let gc: GathercastClient;
  useTwoProcesses(env, (started) => {
    ({ a, databaseUrl, gc } = started);
  });

  it('closes the socket 1011 and leaves the participant neither counted nor announced', async () => {
    const event = await eventIn(gc, 'live');
    const doomed = randomUUID();
    // The group's transaction fails at this participant's participant.joined row, as on a database error.
    await withDb(databaseUrl, (db) =>
      db.query(`
        create or replace function fail_join() returns trigger language plpgsql as $$
        begin raise exception 'join refused for the test'; end $$;
        create trigger fail_join before insert on domain_event for each row
          when (new.type = 'participant.joined' and new.payload->>'participantId' = 'user:${doomed}') execute function fail_join();`),
    );
    const host = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    const token = await tokenFor(a, event.id, { role: 'speaker', userId: doomed });
    const closed = await LiveClient.connect(a, token).then((c) => c.closed);
    expect(closed).toBe(1011);
    await withDb(databaseUrl, (db) => db.query('drop trigger fail_join on domain_event'));
    // A later participant's join and leave go through; the failed one was never present.
    const later = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'speaker' }));
    await later.close();
    await eventually(
      () => webhooks(databaseUrl, event.id),
      (rows) => rows.filter((r) => r.type === 'participant.left').length === 1,
    );
    const rows = await webhooks(databaseUrl, event.id);
    expect(rows.filter((r) => r.participant_id === `user:${doomed}`)).toEqual([]);
    expect(await presentIds(host, 'after')).not.toContain(`user:${doomed}`);
    await host.close();
  });
});

describe('a crashed process whose joins were not settled (Redis)', () => {
  let a: RunningServer;
  let databaseUrl: string;
  let gc: GathercastClient;
  useTwoProcesses(redisEnv, (started) => {
    ({ a, databaseUrl, gc } = started);
  });
  const ghosts: RedisPresenceStore[] = [];
  afterAll(async () => {
    await Promise.all(ghosts.map((g) => g.stop()));
  });

  /** A process that decides these first joins and crashes before settling them. */
  async function crashedProcessWith(eventId: string, joins: PresenceJoin[]) {
    const ghost = await crashingProcess(databaseUrl);
    ghosts.push(ghost.store);
    expect(await ghost.store.joinMany(undefined as never, eventId, joins)).toEqual(joins);
    return ghost;
  }

  it('announces the left of a join that committed, and nothing for one that did not', async () => {
    const event = await eventIn(gc, 'live');
    const host = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    const committed = joinOf();
    const lost = joinOf();
    const ghost = await crashedProcessWith(event.id, [committed, lost]);
    // The committed one's transaction got as far as its webhook row before the crash.
    await commitJoined(databaseUrl, event.id, committed);
    await ghost.expire();
    await host.next('presence.left', (m) => m.participantId === committed.info.participantId);
    const rows = await eventually(
      () => webhooks(databaseUrl, event.id),
      (r) => r.some((w) => w.type === 'participant.left'),
    );
    expect(rows.filter((r) => r.participant_id !== participantOf(host))).toEqual([
      { id: committed.webhookId, type: 'participant.joined', participant_id: committed.info.participantId },
      { id: expect.any(String), type: 'participant.left', participant_id: committed.info.participantId },
    ]);
    expect(await presentIds(host, 'swept')).toEqual([participantOf(host)]);
    await host.close();
  });

  it("announces the join of a participant still present elsewhere, with the lost webhook's id", async () => {
    const event = await eventIn(gc, 'live');
    const host = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    const userId = randomUUID();
    const unsettled = joinOf(userId);
    const ghost = await crashedProcessWith(event.id, [unsettled]);
    // The same participant's second tab, on a live process: not its first connection, so no webhook.
    const tab = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'speaker', userId }));
    tab.send({ type: 'ping' });
    await tab.next('pong');
    await ghost.expire();
    const rows = await eventually(
      () => webhooks(databaseUrl, event.id),
      (r) => r.some((w) => w.participant_id === `user:${userId}`),
    );
    expect(rows.filter((r) => r.participant_id === `user:${userId}`)).toEqual([
      { id: unsettled.webhookId, type: 'participant.joined', participant_id: `user:${userId}` },
    ]);
    expect(await presentIds(host, 'present')).toContain(`user:${userId}`);
    await tab.close();
    await eventually(
      () => webhooks(databaseUrl, event.id),
      (r) => r.some((w) => w.type === 'participant.left'),
    );
    await host.close();
  });
});

describe("a crashed process's entries count until a sweep removes them (Redis)", () => {
  let a: RunningServer;
  let databaseUrl: string;
  let gc: GathercastClient;
  let ghost: RedisPresenceStore | undefined;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    // Sweeps every 10 minutes: the test runs in the gap between a crashed process's expiry and its sweep.
    a = await startReplica(databaseUrl, redisEnv, { presence: { heartbeatMs: 600_000, ttlMs: 1_200_000 } });
    gc = createClient({ baseUrl: a.url, apiKey: (await createWorkspace(databaseUrl)).apiKey });
  });
  afterAll(async () => {
    await ghost?.stop();
    await a?.close();
  });

  it('does not announce again a participant who comes back after the crashed process expired, before the sweep', async () => {
    const event = await eventIn(gc, 'live');
    const userId = randomUUID();
    const join = joinOf(userId);
    const crashing = await crashingProcess(databaseUrl);
    ghost = crashing.store;
    await ghost.joinMany(undefined as never, event.id, [join]);
    // Its participant.joined committed and was settled; then the process died and its key expired.
    await commitJoined(databaseUrl, event.id, join);
    await ghost.settle(event.id, [join], true);
    await crashing.expire();
    const back = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'speaker', userId }));
    back.send({ type: 'ping' });
    await back.next('pong');
    expect(
      (await webhooks(databaseUrl, event.id)).filter((w) => w.participant_id === `user:${userId}`),
    ).toEqual([{ id: join.webhookId, type: 'participant.joined', participant_id: `user:${userId}` }]);
    await back.close();
  });
});
