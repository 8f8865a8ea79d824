import { randomUUID } from 'node:crypto';
import type { LiveServerMessage } from '@gathercast/contract';
import { Redis } from 'ioredis';
import type pg from 'pg';
import type { Logger } from 'pino';
import { PgListener } from './pg-listener';

/**
 * Which of an event's connections, on every process, an envelope is for. `room`: everyone but
 * viewers (the people who are announced to each other one by one).
 */
export type Target =
  | { to: 'all' }
  | { to: 'room' }
  | { to: 'moderators' }
  | { to: 'participant'; participantId: string };

/**
 * Something that happens to the target connections besides (or instead of) a message. `resumed`: the
 * participant resumed a dropped socket somewhere, so leaves held for it anywhere can go quietly.
 */
export type Action = 'lobby.admit' | 'lobby.deny' | 'resumed';

export interface Envelope {
  eventId: string;
  target: Target;
  message?: LiveServerMessage;
  action?: Action;
  /** `resumed`: who resumed (one notice for many participants; older processes sent one per participant in `target`). */
  participants?: string[];
  /** The event stream's number for this envelope, assigned where it was published (set on delivery). */
  seq?: number;
}

/** An event's history after a seq: every envelope up to `lastSeq`, oldest first. */
export interface Backlog {
  lastSeq: number;
  envelopes: Envelope[];
}

/** How much of each event's stream is kept for resumes. */
export interface HistoryLimits {
  windowMs: number;
  /** At most this many envelopes per event; 0 keeps none (every message is still numbered). */
  max: number;
}

/**
 * Delivers envelopes to every server process of the deployment, this one included, each numbered in
 * its event's stream (one counter per event, shared by all processes) and kept in the event's history.
 */
export interface Fanout {
  start(deliver: (envelope: Envelope) => void): Promise<void>;
  publish(envelope: Envelope): Promise<void>;
  /** The event's last seq (0 before its first message). */
  lastSeq(eventId: string): Promise<number>;
  /** Everything after `after`, or null when the history no longer holds all of it (trimmed or too old). */
  since(eventId: string, after: number): Promise<Backlog | null>;
  stop(): Promise<void>;
}

const channel = 'gc_live';
/** NOTIFY payloads must stay under 8000 bytes; larger envelopes are fetched from the history (or live_message). */
const maxInlineBytes = 7000;
/** `ref:<eventId>:<seq>`: in live_history; `msg:<seq>:<id>`: in live_message (history off; `msg::<id>` a large notice). */
const refPrefix = 'ref:';
const msgPrefix = 'msg:';

/** `<seq>:<envelope json>`, or `:<envelope json>` for a notice: the wire form on both backends. */
function parseNumbered(payload: string): Envelope {
  const colon = payload.indexOf(':');
  const envelope = JSON.parse(payload.slice(colon + 1)) as Envelope;
  return colon > 0 ? { ...envelope, seq: Number(payload.slice(0, colon)) } : envelope;
}

/**
 * An envelope without a message (a resume, a lobby decision) is a notice to the processes, not part of
 * the event's stream: it takes no seq and no room in the history. A crowd resuming at once therefore
 * neither trims the messages its later members still need nor queues behind the event's counter.
 */
export const isNotice = (envelope: Envelope): boolean => !envelope.message;

/** A backlog is whole when it holds every seq from after + 1 to lastSeq. */
function whole(after: number, lastSeq: number, envelopes: Envelope[]): Backlog | null {
  if (after > lastSeq || envelopes.length !== lastSeq - after) return null;
  if (envelopes.some((e, i) => e.seq !== after + 1 + i)) return null;
  return { lastSeq, envelopes };
}

/**
 * PostgreSQL LISTEN/NOTIFY on one channel per database (REDIS_URL unset). One statement numbers the
 * envelope (row lock on the event's live_stream row, so commit order is seq order and NOTIFY order with
 * it), stores it in live_history, trims that event's history and notifies.
 */
export class PgFanout implements Fanout {
  #listener: PgListener | undefined;
  #lastCleanup = 0;
  /** Envelopes are delivered in notification order, also when one has to be fetched. */
  #receiving: Promise<void> = Promise.resolve();

  constructor(
    private readonly databaseUrl: string,
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
    private readonly limits: HistoryLimits,
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
    const inline = Buffer.byteLength(json) <= maxInlineBytes;
    if (isNotice(envelope)) {
      if (inline) await this.pool.query('select pg_notify($1, $2)', [channel, `:${json}`]);
      else {
        const id = randomUUID();
        await this.pool.query(
          'with m as (insert into live_message (id, payload) values ($2, $3)) select pg_notify($1, $4)',
          [channel, id, json, `${msgPrefix}:${id}`],
        );
      }
      return;
    }
    const keep = this.limits.max > 0;
    let ref: string | null = null;
    if (!inline && !keep) {
      ref = randomUUID();
      await this.pool.query('insert into live_message (id, payload) values ($1, $2)', [ref, json]);
    }
    await this.pool.query(
      `with s as (
         insert into live_stream (event_id, seq) values ($1, 1)
         on conflict (event_id) do update set seq = live_stream.seq + 1
         returning seq),
       kept as (
         insert into live_history (event_id, seq, payload) select $1, seq, $2 from s where $4::int > 0),
       -- Everything below the lower of two bounds goes: the count's, and the oldest row still inside
       -- the window (found by walking the event's seq index from its start, so past the expired rows
       -- only). Both deletes and look-ups cost the rows removed, not the rows kept.
       trimmed as (
         delete from live_history
          where event_id = $1
            and seq < greatest(
              (select seq from s) - $4::int + 1,
              coalesce(
                (select min(seq) from live_history
                  where event_id = $1 and created_at >= now() - make_interval(secs => $3::float8 / 1000)),
                (select seq from s))))
       select pg_notify($5, case
           when $6::boolean then seq || ':' || $2
           when $7::text is not null then '${msgPrefix}' || seq || ':' || $7
           else '${refPrefix}' || $1 || ':' || seq end)
         from s`,
      [envelope.eventId, json, this.limits.windowMs, this.limits.max, channel, inline, ref],
    );
    if (Date.now() - this.#lastCleanup > 60_000) {
      this.#lastCleanup = Date.now();
      // Idle events' history and fetched oversized payloads; indexed by age, so the cost is the rows gone.
      await this.pool.query(`delete from live_message where created_at < now() - interval '1 minute'`);
      await this.pool.query(
        'delete from live_history where created_at < now() - make_interval(secs => $1::float8 / 1000)',
        [this.limits.windowMs],
      );
    }
  }

  async lastSeq(eventId: string): Promise<number> {
    const { rows } = await this.pool.query<{ seq: string }>('select seq from live_stream where event_id = $1', [
      eventId,
    ]);
    return Number(rows[0]?.seq ?? 0);
  }

  async since(eventId: string, after: number): Promise<Backlog | null> {
    // One statement, one snapshot: the counter and the rows agree.
    const { rows } = await this.pool.query<{ last: string | null; seq: string | null; payload: string | null }>(
      `select (select seq from live_stream where event_id = $1) as last, seq, payload
         from (select 1) one
         left join live_history on event_id = $1 and seq > $2
              and created_at >= now() - make_interval(secs => $3::float8 / 1000)
        order by seq`,
      [eventId, after, this.limits.windowMs],
    );
    const lastSeq = Number(rows[0]?.last ?? 0);
    const envelopes = rows
      .filter((r) => r.seq !== null)
      .map((r) => ({ ...(JSON.parse(r.payload!) as Envelope), seq: Number(r.seq) }));
    return whole(after, lastSeq, envelopes);
  }

  async #receive(payload: string, deliver: (envelope: Envelope) => void): Promise<void> {
    try {
      if (payload.startsWith(msgPrefix)) {
        const [seq, id] = payload.slice(msgPrefix.length).split(':');
        const { rows } = await this.pool.query<{ payload: string }>('select payload from live_message where id = $1', [
          id,
        ]);
        if (rows[0]) deliver({ ...(JSON.parse(rows[0].payload) as Envelope), ...(seq ? { seq: Number(seq) } : {}) });
        return;
      }
      if (!payload.startsWith(refPrefix)) return deliver(parseNumbered(payload));
      const [eventId, seq] = payload.slice(refPrefix.length).split(':');
      const { rows } = await this.pool.query<{ payload: string }>(
        'select payload from live_history where event_id = $1 and seq = $2',
        [eventId, seq],
      );
      if (rows[0]) deliver({ ...(JSON.parse(rows[0].payload) as Envelope), seq: Number(seq) });
    } catch (err) {
      this.logger.warn({ err }, 'live fan-out message dropped');
    }
  }

  async stop(): Promise<void> {
    await this.#listener?.stop();
  }
}

// KEYS: seq counter, history stream. ARGV: channel, envelope json, window ms, max kept.
// One script: numbering, keeping and publishing are atomic, so every subscriber sees seq order.
// The counter outlives any quiet spell of a live event (30 days): were it to restart at 1, sockets
// still open would take the new numbers for ones already sent and drop them.
const publishScript = `
local seq = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], 2592000000)
local window = tonumber(ARGV[3])
local max = tonumber(ARGV[4])
if max > 0 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('XADD', KEYS[2], 'MAXLEN', max, '*', 'seq', seq, 'env', ARGV[2])
  redis.call('XTRIM', KEYS[2], 'MINID', string.format('%d', now - window))
  redis.call('PEXPIRE', KEYS[2], window * 2)
end
redis.call('PUBLISH', ARGV[1], seq .. ':' .. ARGV[2])
return seq`;

// KEYS: seq counter, history stream. ARGV: after, window ms. Answers { last seq, 'seq:env'... oldest first }
// with only the entries younger than the window.
const sinceScript = `
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local after = tonumber(ARGV[1])
local out = { last }
if after >= last then return out end
local t = redis.call('TIME')
local oldest = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(ARGV[2])
local entries = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', last - after)
for i = #entries, 1, -1 do
  local id, fields = entries[i][1], entries[i][2]
  if tonumber(string.match(id, '^(%d+)')) >= oldest then
    out[#out + 1] = fields[2] .. ':' .. fields[4]
  end
end
return out`;

/** Redis pub/sub (REDIS_URL set): one channel for the deployment; per event a counter and a stream. */
export class RedisFanout implements Fanout {
  readonly #pub: Redis;
  readonly #sub: Redis;
  /** One channel per deployment (namespace = the database's name), so deployments sharing a Redis stay apart. */
  readonly #channel: string;
  readonly #prefix: string;

  constructor(
    redisUrl: string,
    private readonly logger: Logger,
    namespace: string,
    private readonly limits: HistoryLimits,
  ) {
    this.#channel = `gathercast:${channel}:${namespace}`;
    this.#prefix = `gc:live:${namespace}:`;
    // Commands of one event-loop turn (a crowd's history reads and resume notices) leave as one write.
    this.#pub = new Redis(redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    this.#sub = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    // ioredis reconnects by itself; a lost connection is worth a warning, not a crash.
    for (const r of [this.#pub, this.#sub])
      r.on('error', (err) => this.logger.warn({ err }, 'live Redis connection error'));
  }

  /** The event's counter and stream, hash-tagged to one cluster slot. */
  #keys(eventId: string): [string, string] {
    return [`${this.#prefix}seq:{${eventId}}`, `${this.#prefix}hist:{${eventId}}`];
  }

  async start(deliver: (envelope: Envelope) => void): Promise<void> {
    this.#sub.on('message', (_c: string, payload: string) => {
      try {
        deliver(parseNumbered(payload));
      } catch (err) {
        this.logger.warn({ err }, 'live fan-out message dropped');
      }
    });
    await this.#sub.subscribe(this.#channel);
  }

  async publish(envelope: Envelope): Promise<void> {
    if (isNotice(envelope)) {
      await this.#pub.publish(this.#channel, `:${JSON.stringify(envelope)}`);
      return;
    }
    await this.#pub.eval(
      publishScript,
      2,
      ...this.#keys(envelope.eventId),
      this.#channel,
      JSON.stringify(envelope),
      this.limits.windowMs,
      this.limits.max,
    );
  }

  async lastSeq(eventId: string): Promise<number> {
    return Number((await this.#pub.get(this.#keys(eventId)[0])) ?? 0);
  }

  async since(eventId: string, after: number): Promise<Backlog | null> {
    const [last, ...entries] = (await this.#pub.eval(
      sinceScript,
      2,
      ...this.#keys(eventId),
      after,
      this.limits.windowMs,
    )) as [number, ...string[]];
    return whole(after, Number(last), entries.map(parseNumbered));
  }

  async stop(): Promise<void> {
    this.#sub.disconnect();
    this.#pub.disconnect();
  }
}
