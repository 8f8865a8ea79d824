import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Logger } from 'pino';
import { withTransaction } from '../../db/pool';
import { Batcher } from '../../lib/batcher';
import {
  type Backlog,
  channel,
  type Envelope,
  type Fanout,
  type HistoryLimits,
  isNotice,
  parseNumbered,
  whole,
} from '../fanout';
import { PgListener } from '../pg-listener';

/** NOTIFY payloads must stay under 8000 bytes; larger envelopes are fetched from the history (or live_message). */
const maxInlineBytes = 7000;
/** `ref:<eventId>:<seq>`: in live_history; `msg:<seq>:<id>`: in live_message (history off; `msg::<id>` a large notice). */
const refPrefix = 'ref:';
const msgPrefix = 'msg:';

/**
 * PostgreSQL LISTEN/NOTIFY on one channel per database (REDIS_URL unset). One statement numbers each
 * envelope (row lock on the event's live_stream row, held to commit, so commit order is seq order and
 * NOTIFY order with it), stores it in live_history, trims that event's history and notifies; the
 * envelopes published meanwhile share a transaction.
 */
export class PgFanout implements Fanout {
  #listener: PgListener | undefined;
  #lastCleanup = 0;
  /** Envelopes are delivered in notification order, also when one has to be fetched. */
  #receiving: Promise<void> = Promise.resolve();
  /**
   * Numbered envelopes published while a group is being written go together in the next one: every
   * envelope of an event takes that event's row lock until its transaction commits, so one commit per
   * envelope capped a busy event (a thousand questions and votes at once) at one commit's time each.
   * One group at a time: a process's envelopes are numbered in the order it published them.
   */
  readonly #numbered = new Batcher<Envelope, undefined>((envelopes) => this.#publishGroup(envelopes), 100, 1);

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
    if (!isNotice(envelope)) return this.#numbered.submit(envelope);
    const json = JSON.stringify(envelope);
    if (Buffer.byteLength(json) <= maxInlineBytes)
      await this.pool.query('select pg_notify($1, $2)', [channel, `:${json}`]);
    else {
      const id = randomUUID();
      await this.pool.query(
        'with m as (insert into live_message (id, payload) values ($2, $3)) select pg_notify($1, $4)',
        [channel, id, json, `${msgPrefix}:${id}`],
      );
    }
  }

  /**
   * A group of numbered envelopes in one transaction: the event rows locked in event order (so no two
   * groups, on any process, can deadlock), each event's envelopes in the order they were published.
   * A lone envelope needs no transaction of its own.
   */
  async #publishGroup(envelopes: Envelope[]): Promise<undefined[]> {
    const ordered = [...envelopes].sort((x, y) =>
      x.eventId < y.eventId ? -1 : x.eventId > y.eventId ? 1 : 0,
    );
    if (ordered.length === 1) await this.#number(this.pool, ordered[0]!);
    else
      await withTransaction(this.pool, async (client) => {
        for (const envelope of ordered) await this.#number(client, envelope);
      });
    if (Date.now() - this.#lastCleanup > 60_000) {
      this.#lastCleanup = Date.now();
      // Idle events' history and fetched oversized payloads; indexed by age, so the cost is the rows gone.
      await this.pool.query(`delete from live_message where created_at < now() - interval '1 minute'`);
      await this.pool.query(
        'delete from live_history where created_at < now() - make_interval(secs => $1::float8 / 1000)',
        [this.limits.windowMs],
      );
    }
    return envelopes.map(() => undefined);
  }

  /** One statement numbers the envelope, keeps it in the event's history, trims that history and notifies. */
  async #number(db: pg.Pool | pg.PoolClient, envelope: Envelope): Promise<void> {
    const json = JSON.stringify(envelope);
    const inline = Buffer.byteLength(json) <= maxInlineBytes;
    let ref: string | null = null;
    if (!inline && this.limits.max === 0) {
      ref = randomUUID();
      await db.query('insert into live_message (id, payload) values ($1, $2)', [ref, json]);
    }
    await db.query(
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
  }

  async lastSeq(eventId: string): Promise<number> {
    const { rows } = await this.pool.query<{ seq: string }>(
      'select seq from live_stream where event_id = $1',
      [eventId],
    );
    return Number(rows[0]?.seq ?? 0);
  }

  async since(eventId: string, after: number): Promise<Backlog | null> {
    // One statement, one snapshot: the counter and the rows agree.
    const { rows } = await this.pool.query<{
      last: string | null;
      seq: string | null;
      payload: string | null;
    }>(
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
        const { rows } = await this.pool.query<{ payload: string }>(
          'select payload from live_message where id = $1',
          [id],
        );
        if (rows[0])
          deliver({ ...(JSON.parse(rows[0].payload) as Envelope), ...(seq ? { seq: Number(seq) } : {}) });
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

  /** Every event's envelopes reach every process here (one NOTIFY channel): nothing to listen to. */
  async serve(_eventId: string): Promise<void> {}

  release(_eventId: string): void {}

  async stop(): Promise<void> {
    await this.#listener?.stop();
  }
}
