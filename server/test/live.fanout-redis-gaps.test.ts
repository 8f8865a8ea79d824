import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisFanout } from '../src/live/backends/fanout-redis';
import type { Envelope } from '../src/live/fanout';
import { waitUntil } from './support/budgets';
import { freePort } from './support/ports';
import { RedisServer } from './support/redis-server';

/**
 * Redis pub/sub delivers at most once: a process whose subscriber connection drops (a restart, a
 * failover) misses what is published until it has subscribed again. The fan-out fills such a gap from
 * the event's history, so the process still delivers each of the event's messages once and in order:
 * at once when a later message shows the gap, within a few seconds when nothing follows it.
 */
let redis: RedisServer;
let admin: Redis;
let listening: RedisFanout;
let publishing: RedisFanout;
const delivered: Envelope[] = [];
const deliveredToPublisher: Envelope[] = [];
const logger = pino({ level: 'silent' });
const limits = { windowMs: 120_000, max: 1000 };

beforeAll(async () => {
  // A Redis of the test's own: it cuts every subscriber connection, which must be this test's only.
  redis = await RedisServer.start(await freePort(), ['--save', '', '--appendonly', 'no']);
  admin = new Redis(redis.url);
  listening = new RedisFanout(redis.url, logger, 'gaps', limits);
  publishing = new RedisFanout(redis.url, logger, 'gaps', limits);
  await listening.start((e) => delivered.push(e));
  await publishing.start((e) => deliveredToPublisher.push(e));
});
afterAll(async () => {
  await listening?.stop();
  await publishing?.stop();
  admin?.disconnect();
  await redis?.stop();
});

const chat = (eventId: string, text: string): Envelope => ({
  eventId,
  target: { to: 'all' },
  message: {
    type: 'chat.message',
    id: randomUUID(),
    from: { participantId: 'user:1', name: 'Pat', role: 'host', anonymous: false },
    text,
    sentAt: new Date().toISOString(),
  },
});
const textsOf = (eventId: string) =>
  delivered
    .filter((e) => e.eventId === eventId)
    .map((e) => `${e.seq}:${(e.message as { text: string }).text}`);

/** Cuts the listening process's subscriber and publishes `texts` before it can subscribe again. */
async function missWhileCut(eventId: string, texts: string[]): Promise<void> {
  await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
  for (const text of texts) await publishing.publish(chat(eventId, text));
}

describe('Redis fan-out across a dropped subscriber', () => {
  it('fills the gap as soon as a later message shows it', async () => {
    const eventId = randomUUID();
    await listening.serve(eventId);
    await publishing.publish(chat(eventId, 'a'));
    await waitUntil(() => textsOf(eventId).length === 1, 'the first message');
    await missWhileCut(eventId, ['b', 'c']);
    await waitUntil(
      async () => (await admin.pubsub('SHARDNUMSUB', `gc:live:gaps:gc_live:{${eventId}}`))[1] === 1,
      'the subscriber back',
    );
    await publishing.publish(chat(eventId, 'd'));
    await waitUntil(() => textsOf(eventId).length === 4, 'four messages');
    expect(textsOf(eventId)).toEqual(['1:a', '2:b', '3:c', '4:d']);
  });

  it('fills a gap nothing follows within a few seconds', async () => {
    const eventId = randomUUID();
    await listening.serve(eventId);
    await publishing.publish(chat(eventId, 'a'));
    await waitUntil(() => textsOf(eventId).length === 1, 'the first message');
    await missWhileCut(eventId, ['b']);
    await waitUntil(() => textsOf(eventId).length === 2, 'the missed message', 5000);
    expect(textsOf(eventId)).toEqual(['1:a', '2:b']);
  });
});

/**
 * Redis replicates asynchronously: a master that dies before its replica received the last writes
 * comes back, after the failover, with the event's counter behind numbers already delivered. Numbers
 * taken again would be dropped by every process that saw them the first time.
 */
describe('Redis fan-out after its counter went back (an unplanned failover lost writes)', () => {
  const counterKey = (eventId: string) => `gc:live:gaps:seq:{${eventId}}`;

  it('numbers a message published by a process serving the event after the last one it delivered', async () => {
    const eventId = randomUUID();
    await Promise.all([listening.serve(eventId), publishing.serve(eventId)]);
    for (const text of ['a', 'b', 'c']) await publishing.publish(chat(eventId, text));
    await waitUntil(
      () =>
        textsOf(eventId).length === 3 &&
        deliveredToPublisher.filter((e) => e.eventId === eventId).length === 3,
      'three messages on both processes',
    );
    await admin.set(counterKey(eventId), 1);
    await publishing.publish(chat(eventId, 'd'));
    await waitUntil(() => textsOf(eventId).length === 4, 'the message after the loss');
    expect(textsOf(eventId)).toEqual(['1:a', '2:b', '3:c', '4:d']);
    publishing.release(eventId);
  });

  it('raises the counter within a few seconds, so a message published elsewhere is delivered too', async () => {
    const eventId = randomUUID();
    await listening.serve(eventId);
    for (const text of ['a', 'b', 'c']) await publishing.publish(chat(eventId, text));
    await waitUntil(() => textsOf(eventId).length === 3, 'three messages');
    await admin.set(counterKey(eventId), 1);
    await waitUntil(async () => (await admin.get(counterKey(eventId))) === '3', 'the counter raised', 5000);
    await publishing.publish(chat(eventId, 'd'));
    await waitUntil(() => textsOf(eventId).length === 4, 'the message after the loss');
    expect(textsOf(eventId)).toEqual(['1:a', '2:b', '3:c', '4:d']);
  });
});
