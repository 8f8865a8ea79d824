import { setTimeout as delay } from 'node:timers/promises';
import type { GathercastClient } from '@gathercast/sdk';
import { createClient } from '@gathercast/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { presenceKeys } from '../src/live/backends/presence-redis-layout';
import { parseRedisUrl } from '../src/redis-url';
import type { RunningServer } from '../src/server';
import { waitUntil } from './support/budgets';
import { createTestDatabase } from './support/database';
import { eventIn } from './support/events';
import { createWorkspace } from './support/fixtures';
import { LiveClient, startReplica, tokenFor } from './support/live';
import { RedisClusterNodes, RedisSentinelPair, type RedisTopology } from './support/redis-topologies';

/**
 * Redis as operators run it: a Redis Cluster (three masters, each with a replica) and a master watched
 * by a pair of Sentinels, both from `redis-server`. Two server processes share each; the live plane
 * keeps every message exact (once, in order, on both processes) through a planned master failover,
 * delivery resumes within 10 s, and REST keeps answering meanwhile.
 */

describe('REDIS_URL forms', () => {
  it('reads one server, a Sentinel-watched master and a cluster', () => {
    expect(parseRedisUrl('redis://:pw@cache:6380/2')).toEqual({
      kind: 'single',
      url: 'redis://:pw@cache:6380/2',
    });
    expect(parseRedisUrl('redis-sentinel://:pw@s1:26379,s2:26380/mymaster/1?sentinelPassword=sp')).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26380 },
      ],
      name: 'mymaster',
      db: 1,
      auth: { password: 'pw' },
      tls: false,
      sentinelPassword: 'sp',
    });
    expect(parseRedisUrl('rediss-cluster://app:pw@n1:7000,n2:7001')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
      ],
      auth: { username: 'app', password: 'pw' },
      tls: true,
    });
  });

  it('refuses at startup, one line naming REDIS_URL, a URL of none of the forms', () => {
    for (const bad of [
      'http://cache:6379',
      'redis-sentinel://s1:26379',
      'redis-cluster://n1',
      'redis-cluster://n1:7000/0',
    ])
      expect(() => loadConfig({ REDIS_URL: bad })).toThrow(/REDIS_URL=.*: /);
  });
});

const chatOnly = [{ modality: 'broadcast' as const, featureSet: ['chat' as const] }];

describe.each([
  ['a Redis Cluster of three masters', () => RedisClusterNodes.start(), true],
  ['a master watched by a Sentinel pair', () => RedisSentinelPair.start(), false],
] as const)('on %s', (_name, start, cluster) => {
  let redis: RedisTopology;
  let a: RunningServer;
  let b: RunningServer;
  let gc: GathercastClient;
  let namespace: string;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    namespace = new URL(databaseUrl).pathname.slice(1);
    redis = await start();
    [a, b] = await Promise.all([
      startReplica(databaseUrl, { REDIS_URL: redis.url }),
      startReplica(databaseUrl, { REDIS_URL: redis.url }),
    ]);
    gc = createClient({ baseUrl: a.url, apiKey: (await createWorkspace(databaseUrl)).apiKey });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
  });

  /** The event's fan-out channel (its hash tag decides the shard). */
  const channelOf = (eventId: string) => `gc:live:${namespace}:gc_live:{${eventId}}`;

  it.runIf(cluster)(
    'keeps every key of an event’s presence and stream, and its channel, in one slot',
    async () => {
      const eventId = (await eventIn(gc, 'live', chatOnly)).id;
      const k = presenceKeys(namespace);
      const keys = [
        k.presence(eventId, 'user:1'),
        k.presence(eventId, 'anon:2'),
        k.event(eventId),
        k.audience(eventId),
        k.held(eventId, 'p1'),
        k.pending(eventId, 'p2'),
        `gc:live:${namespace}:seq:{${eventId}}`,
        `gc:live:${namespace}:hist:{${eventId}}`,
        channelOf(eventId),
      ];
      const node = await redis.masterOf(eventId);
      const slots = await Promise.all(keys.map((key) => node.cluster('KEYSLOT', key)));
      expect(new Set(slots).size).toBe(1);
    },
  );

  it('delivers each message once and in order to viewers on both processes; a process listens to the events it serves only', async () => {
    const event = await eventIn(gc, 'live', chatOnly);
    const host = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    const master = await redis.masterOf(event.id);
    const listeners = async () => {
      const [, n] = (await master.call('PUBSUB', 'SHARDNUMSUB', channelOf(event.id))) as [string, number];
      return n;
    };
    // Only the host's process serves the event so far.
    await waitUntil(async () => (await listeners()) === 1, 'one process listening');
    const viewers = [
      await LiveClient.join(a, await tokenFor(a, event.id, { role: 'viewer' })),
      await LiveClient.join(b, await tokenFor(b, event.id, { role: 'viewer' })),
    ];
    expect(await listeners()).toBe(2);
    const texts = Array.from({ length: 20 }, (_, i) => `m${i}`);
    for (const text of texts) host.send({ type: 'chat.send', text });
    for (const v of viewers) await v.next('chat.message', (m) => m.text === 'm19');
    for (const v of viewers) expect(v.all('chat.message').map((m) => m.text)).toEqual(texts);
    await viewers[1]!.close();
    await waitUntil(
      async () => (await listeners()) === 1,
      'the second process to stop listening once its last socket left',
    );
    await Promise.all([host.close(), viewers[0]!.close()]);
  });

  it('loses nothing through a master failover under live load, resumes within 10 s, and REST keeps answering', async () => {
    const event = await eventIn(gc, 'live', chatOnly);
    const host = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    const viewers = [
      await LiveClient.join(a, await tokenFor(a, event.id, { role: 'viewer' })),
      await LiveClient.join(b, await tokenFor(b, event.id, { role: 'viewer' })),
    ];
    const sent: string[] = [];
    let sending = true;
    // A steady stream of chat (every 150 ms: within a socket's 10 messages a second) from before the failover until after it:
    // the load's pace, not a wait for something.
    const stream = (async () => {
      while (sending) {
        const text = `c${sent.length}`;
        sent.push(text);
        host.send({ type: 'chat.send', text });
        await delay(150);
      }
    })();
    await viewers[1]!.next('chat.message', (m) => m.text === 'c5');
    let failingOver = true;
    const failedOver = redis.failover(event.id).finally(() => {
      failingOver = false;
    });
    // REST through the failover: reads of the event, each counted by the rate limits kept in Redis.
    const rest: string[] = [];
    const restLoop = (async () => {
      while (failingOver)
        rest.push(
          await gc.events.retrieve(event.id).then(
            () => 'ok',
            (err: Error) => err.message,
          ),
        );
    })();
    await failedOver;
    const after = Date.now();
    const firstAfter = `c${sent.length}`;
    // Delivery resumes: a message sent after the failover reaches both processes' viewers within 10 s.
    for (const v of viewers) await v.next('chat.message', (m) => m.text === firstAfter, 10_000);
    expect(Date.now() - after).toBeLessThan(10_000);
    sending = false;
    await Promise.all([stream, restLoop]);
    const last = sent[sent.length - 1]!;
    // (Not `next`: the first message after the failover may be the last one sent, already waited for.)
    for (const v of viewers)
      await waitUntil(() => v.all('chat.message').some((m) => m.text === last), 'the last message');
    // 0 lost: every message once, in the order sent, on both processes.
    for (const v of viewers) expect(v.all('chat.message').map((m) => m.text)).toEqual(sent);
    expect(host.all('error')).toEqual([]);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.filter((r) => r !== 'ok')).toEqual([]);
    await Promise.all([host.close(), ...viewers.map((v) => v.close())]);
  });
});
