import { randomUUID } from 'node:crypto';
import type { GathercastClient } from '@gathercast/sdk';
import { Redis } from 'ioredis';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { PgFanout } from '../src/live/backends/fanout-pg';
import { presenceKeys } from '../src/live/backends/presence-redis-layout';
import type { RunningServer } from '../src/server';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { liveBackends, useTwoProcesses } from './support/hooks';
import { eventually, LiveClient, recorded, startReplica, tokenFor } from './support/live';
import { testRedisUrl } from './support/redis';
import { quietFor } from './support/wait';

const redisUrl = testRedisUrl();

/** Two server processes on one database, as a deployment runs them: once without Redis, once with it. */
describe.each(liveBackends)('live presence and fan-out across two processes (%s)', (backend, env) => {
  let a: RunningServer;
  let b: RunningServer;
  let databaseUrl: string;
  let gc: GathercastClient;
  useTwoProcesses(env, (started) => {
    ({ a, b, databaseUrl, gc } = started);
  });

  const joinedOf = (eventId: string) => recorded(databaseUrl, eventId, 'participant.joined');
  const leftOf = (eventId: string) => recorded(databaseUrl, eventId, 'participant.left');

  it('fires participant.joined once for a participant with tabs on both processes, and left after the last tab', async () => {
    const event = await eventIn(gc, 'live');
    const userId = randomUUID();
    const observer = await LiveClient.join(b, await tokenFor(b, event.id, { role: 'host' }));
    const tab1 = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'speaker', userId }));
    const tab2 = await LiveClient.join(b, await tokenFor(b, event.id, { role: 'speaker', userId }));
    await observer.next('presence.joined', (m) => m.participant.participantId === `user:${userId}`);
    const joined = await eventually(
      () => joinedOf(event.id),
      (r) => r.length >= 2,
    );
    expect(joined.filter((p) => p.participantId === `user:${userId}`)).toEqual([
      { participantId: `user:${userId}`, userId, anonymous: false, role: 'speaker' },
    ]);
    // A socket's messages are handled once its join is recorded: the pong says tab2 counts as present.
    tab2.send({ type: 'ping' });
    await tab2.next('pong');
    await tab1.close();
    // Process A handles tab1's close in the background and, rightly, records nothing: no event says it
    // is done, and the outbox is no ordered stream a marker could follow.
    await quietFor(300);
    expect((await leftOf(event.id)).length).toBe(0);
    await tab2.close();
    await observer.next('presence.left', (m) => m.participantId === `user:${userId}`);
    expect(
      await eventually(
        () => leftOf(event.id),
        (r) => r.length === 1,
      ),
    ).toEqual([{ participantId: `user:${userId}`, userId, anonymous: false, role: 'speaker' }]);
    expect(
      observer.all('presence.joined').filter((m) => m.participant.participantId === `user:${userId}`),
    ).toHaveLength(1);
    await observer.close();
  });

  it('counts each anonymous viewer as a participant of their own', async () => {
    const event = await eventIn(gc, 'live');
    const v1 = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'viewer', anonymous: true }));
    const v2 = await LiveClient.join(b, await tokenFor(b, event.id, { role: 'viewer', anonymous: true }));
    const joined = await eventually(
      () => joinedOf(event.id),
      (r) => r.length === 2,
    );
    expect(joined).toHaveLength(2);
    for (const p of joined) {
      expect(p).toEqual({ participantId: expect.stringMatching(/^anon:/), anonymous: true, role: 'viewer' });
    }
    expect(joined[0]!.participantId).not.toBe(joined[1]!.participantId);
    await v1.close();
    await v2.close();
    expect(
      await eventually(
        () => leftOf(event.id),
        (r) => r.length === 2,
      ),
    ).toHaveLength(2);
  });

  it('delivers a message sent on one process to the sockets of the other', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
    const onA = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'viewer', name: 'Vi' }));
    const onB = await LiveClient.join(b, await tokenFor(b, event.id, { role: 'host' }));
    onA.send({ type: 'chat.send', text: `hello over ${backend}` });
    const got = await onB.next('chat.message');
    expect(got).toMatchObject({ text: `hello over ${backend}`, from: { name: 'Vi', role: 'viewer' } });
    expect(new Date(got.sentAt).toString()).not.toBe('Invalid Date');
    await onA.next('chat.message');
    onB.send({ type: 'announcement.send', text: 'Doors close soon' });
    expect(await onA.next('announcement')).toMatchObject({ type: 'announcement', text: 'Doors close soon' });
    await onA.close();
    await onB.close();
  });

  it('fires participant.left for participants of a process that stopped renewing its presence', async () => {
    const event = await eventIn(gc, 'live');
    const observer = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    const dead = randomUUID();
    const info = {
      participantId: `user:${dead}`,
      userId: dead,
      name: 'Gone',
      role: 'speaker',
      eventRole: 'speaker',
      anonymous: false,
    };
    // What a crashed process leaves behind: entries nobody renews any more.
    if (backend === 'Redis') {
      const redis = new Redis(redisUrl);
      const proc = randomUUID();
      const keys = presenceKeys(new URL(databaseUrl).pathname.slice(1));
      await redis.hset(keys.presence(event.id, info.participantId), proc, '1', 'info', JSON.stringify(info));
      await redis.zadd(keys.event(event.id), 0, info.participantId);
      await redis.sadd(keys.held(event.id, proc), info.participantId);
      await redis.multi().sadd(keys.events(proc), event.id).sadd(keys.procs, proc).exec();
      redis.disconnect();
    } else {
      await withDb(databaseUrl, (db) =>
        db.query(
          `insert into live_presence (event_id, participant_id, process_id, connections, info, expires_at)
           values ($1, $2, $3, 1, $4, now() - interval '1 second')`,
          [event.id, info.participantId, randomUUID(), JSON.stringify(info)],
        ),
      );
    }
    await observer.next('presence.left', (m) => m.participantId === info.participantId);
    expect(
      await eventually(
        () => leftOf(event.id),
        (r) => r.length >= 1,
      ),
    ).toEqual([{ participantId: info.participantId, userId: dead, anonymous: false, role: 'speaker' }]);
    await observer.close();
  });

  it('moves a stopping process’s sockets away with 1012 and fires participant.left for those that do not resume elsewhere', async () => {
    const event = await eventIn(gc, 'live');
    const third = await startReplica(databaseUrl, env);
    const observer = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    const leaving = await LiveClient.join(third, await tokenFor(third, event.id, { role: 'speaker' }));
    const { participantId } = leaving.all('welcome')[0]!.identity;
    await observer.next('presence.joined', (m) => m.participant.participantId === participantId);
    await third.close();
    expect(await leaving.closed).toBe(1012);
    await observer.next('presence.left', (m) => m.participantId === participantId);
    expect((await leftOf(event.id)).map((p) => p.participantId)).toEqual([participantId]);
    await observer.close();
  });

  it.runIf(backend === 'PostgreSQL')('carries an envelope over 8000 bytes through the database', async () => {
    const event = await eventIn(gc, 'live');
    const client = await LiveClient.join(b, await tokenFor(b, event.id, { role: 'viewer', anonymous: true }));
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    const fanout = new PgFanout(databaseUrl, pool, pino({ level: 'silent' }), {
      windowMs: 120_000,
      max: 1000,
    });
    const text = 'x'.repeat(20_000);
    await fanout.publish({
      eventId: event.id,
      target: { to: 'all' },
      message: { type: 'announcement', text },
    });
    expect((await client.next('announcement')).text).toBe(text);
    await pool.end();
    await client.close();
  });
});
