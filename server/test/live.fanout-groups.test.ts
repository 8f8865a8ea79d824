import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '../src/live/fanout';
import { PgFanout } from '../src/live/backends/fanout-pg';
import { createTestDatabase } from './support/database';
import { eventually } from './support/live';

/**
 * With PostgreSQL fan-out, every numbered envelope holds its event's counter row until it commits.
 * Envelopes published while one is being written share the next transaction, so a burst (a thousand
 * questions and votes at once) costs a commit per group, not per envelope, and each event's stream
 * still numbers them in the order they were published.
 */
let pool: pg.Pool;
let fanout: PgFanout;
const received: Envelope[] = [];
/** Statements sent on the pool outside a transaction, and transactions opened. */
const writes = { statements: 0, transactions: 0 };

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  fanout = new PgFanout(databaseUrl, pool, pino({ level: 'silent' }), { windowMs: 120_000, max: 1000 });
  await fanout.start((envelope) => received.push(envelope));
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.query = ((...args: unknown[]) => {
    writes.statements++;
    return query(...args);
  }) as typeof pool.query;
  // pool.query checks a client out with a callback; a transaction takes one with `await pool.connect()`.
  pool.connect = ((...args: unknown[]) => {
    if (!args.length) writes.transactions++;
    return connect(...args);
  }) as typeof pool.connect;
});
afterAll(async () => {
  await fanout.stop();
  await pool.end();
});

const chat = (eventId: string, text: string): Envelope => ({
  eventId,
  target: { to: 'all' },
  message: { type: 'announcement', text },
});
const textOf = (e: Envelope) => (e.message?.type === 'announcement' ? e.message.text : '');

describe('PostgreSQL fan-out groups', () => {
  it('writes a burst of envelopes in a few transactions, numbered in the order they were published', async () => {
    const [first, second] = [randomUUID(), randomUUID()].sort();
    const burst = Array.from({ length: 60 }, (_, i) => chat(i % 3 === 0 ? second! : first!, `m${i}`));
    // Another event's envelope first: the once-a-minute history clean-up runs with it, not in the count.
    await fanout.publish(chat(randomUUID(), 'warm-up'));
    await eventually(
      async () => received.length,
      (n) => n === 1,
    );
    received.length = 0;
    writes.statements = 0;
    writes.transactions = 0;

    await Promise.all(burst.map((e) => fanout.publish(e)));

    // The first envelope goes alone; the 59 published while it was written go as one group.
    expect(writes.statements + writes.transactions).toBeLessThanOrEqual(3);
    await eventually(
      async () => received.length,
      (n) => n === burst.length,
    );
    for (const eventId of [first, second]) {
      const stream = received.filter((e) => e.eventId === eventId);
      expect(stream.map(textOf)).toEqual(burst.filter((e) => e.eventId === eventId).map(textOf));
      expect(stream.map((e) => e.seq)).toEqual(stream.map((_, i) => i + 1));
    }
  });

  it('keeps a grouped envelope in the history a resume reads', async () => {
    const eventId = randomUUID();
    await Promise.all(['a', 'b', 'c'].map((text) => fanout.publish(chat(eventId, text))));
    const backlog = await fanout.since(eventId, 0);
    expect(backlog?.lastSeq).toBe(3);
    expect(backlog?.envelopes.map(textOf)).toEqual(['a', 'b', 'c']);
  });
});
