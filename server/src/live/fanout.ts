import { randomUUID } from 'node:crypto';
import type { LiveServerMessage } from '@gathercast/contract';
import { Redis } from 'ioredis';
import type pg from 'pg';
import type { Logger } from 'pino';
import { PgListener } from './pg-listener';

/** Which of an event's connections, on every process, an envelope is for. */
export type Target = { to: 'all' } | { to: 'moderators' } | { to: 'participant'; participantId: string };

/** Something that happens to the target connections besides (or instead of) a message. */
export type Action = 'lobby.admit' | 'lobby.deny';

export interface Envelope {
  eventId: string;
  target: Target;
  message?: LiveServerMessage;
  action?: Action;
}

/** Delivers envelopes to every server process of the deployment, this one included. */
export interface Fanout {
  start(deliver: (envelope: Envelope) => void): Promise<void>;
  publish(envelope: Envelope): Promise<void>;
  stop(): Promise<void>;
}

const channel = 'gc_live';
/** NOTIFY payloads must stay under 8000 bytes; larger envelopes travel through live_message. */
const maxInlineBytes = 7000;
const refPrefix = 'ref:';

/** PostgreSQL LISTEN/NOTIFY on one channel per database (REDIS_URL unset). */
export class PgFanout implements Fanout {
  #listener: PgListener | undefined;
  #lastCleanup = 0;
  /** Envelopes are delivered in notification order, also when one has to be fetched from live_message. */
  #receiving: Promise<void> = Promise.resolve();

  constructor(
    private readonly databaseUrl: string,
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  async start(deliver: (envelope: Envelope) => void): Promise<void> {
    this.#listener = new PgListener(
      this.databaseUrl,
      [channel],
      (_c, payload) => {
        this.#receiving = this.#receiving.then(() => this.#receive(payload, deliver));
      },
      this.logger,
    );
    await this.#listener.start();
  }

  async publish(envelope: Envelope): Promise<void> {
    const json = JSON.stringify(envelope);
    if (Buffer.byteLength(json) <= maxInlineBytes) {
      await this.pool.query('select pg_notify($1, $2)', [channel, json]);
      return;
    }
    const id = randomUUID();
    await this.pool.query('insert into live_message (id, payload) values ($1, $2)', [id, json]);
    await this.pool.query('select pg_notify($1, $2)', [channel, refPrefix + id]);
    if (Date.now() - this.#lastCleanup > 60_000) {
      this.#lastCleanup = Date.now();
      // Every listener fetched it within moments; a minute is ample.
      await this.pool.query(`delete from live_message where created_at < now() - interval '1 minute'`);
    }
  }

  async #receive(payload: string, deliver: (envelope: Envelope) => void): Promise<void> {
    try {
      let json = payload;
      if (payload.startsWith(refPrefix)) {
        const { rows } = await this.pool.query<{ payload: string }>(
          'select payload from live_message where id = $1',
          [payload.slice(refPrefix.length)],
        );
        if (!rows[0]) return;
        json = rows[0].payload;
      }
      deliver(JSON.parse(json) as Envelope);
    } catch (err) {
      this.logger.warn({ err }, 'live fan-out message dropped');
    }
  }

  async stop(): Promise<void> {
    await this.#listener?.stop();
  }
}

/** Redis pub/sub (REDIS_URL set): one channel for the deployment. */
export class RedisFanout implements Fanout {
  readonly #pub: Redis;
  readonly #sub: Redis;
  /** One channel per deployment (namespace = the database's name), so deployments sharing a Redis stay apart. */
  readonly #channel: string;

  constructor(
    redisUrl: string,
    private readonly logger: Logger,
    namespace: string,
  ) {
    this.#channel = `gathercast:${channel}:${namespace}`;
    this.#pub = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    this.#sub = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    // ioredis reconnects by itself; a lost connection is worth a warning, not a crash.
    for (const r of [this.#pub, this.#sub])
      r.on('error', (err) => this.logger.warn({ err }, 'live Redis connection error'));
  }

  async start(deliver: (envelope: Envelope) => void): Promise<void> {
    this.#sub.on('message', (_c: string, payload: string) => {
      try {
        deliver(JSON.parse(payload) as Envelope);
      } catch (err) {
        this.logger.warn({ err }, 'live fan-out message dropped');
      }
    });
    await this.#sub.subscribe(this.#channel);
  }

  async publish(envelope: Envelope): Promise<void> {
    await this.#pub.publish(this.#channel, JSON.stringify(envelope));
  }

  async stop(): Promise<void> {
    this.#sub.disconnect();
    this.#pub.disconnect();
  }
}
