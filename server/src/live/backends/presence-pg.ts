import type pg from 'pg';
import { withLockedTransaction, withTransaction } from '../../db/pool';
import { type SqlTx, sql } from '../../db/sql';
import {
  type AudienceCounts,
  noAudience,
  type PresenceInfo,
  type PresenceJoin,
  type PresenceStore,
  type PresenceTiming,
  type SweptEntry,
} from '../presence-store';

/** Joins and leaves of one participant in one event serialize on this advisory lock, on every process. */
const lockKey = (eventId: string, participantId: string) => `live:${eventId}:${participantId}`;

/**
 * A join group's one statement: which of the participants had no entry before (their first
 * connection anywhere), and this process's connection added for each. Whether a participant is
 * present is one index probe per joining participant (the lateral `limit 1`): joined against the
 * event's rows instead, the planner merged the group with every row of the event, so each group of a
 * storm read the whole audience so far.
 */
export const joinGroupSql = `with input as (
    select x.participant_id, x.info from jsonb_to_recordset(?::jsonb) as x(participant_id text, info jsonb)),
  present as (
    select i.participant_id from input i
     cross join lateral (select 1 from live_presence p
                          where p.event_id = ? and p.participant_id = i.participant_id limit 1) p),
  added as (
    insert into live_presence (event_id, participant_id, process_id, connections, info, expires_at)
    select ?, i.participant_id, ?, 1, i.info, clock_timestamp() + make_interval(secs => ?::float8 / 1000) from input i
    on conflict (event_id, participant_id, process_id)
    do update set connections = live_presence.connections + 1, info = excluded.info,
                  expires_at = excluded.expires_at
    returning participant_id)
  select a.participant_id from added a where a.participant_id not in (select participant_id from present)`;

/** The bindings of `joinGroupSql`, in order. */
export const joinGroupParams = (eventId: string, processId: string, ttlMs: number, infos: PresenceInfo[]) => [
  JSON.stringify(infos.map((info) => ({ participant_id: info.participantId, info }))),
  eventId,
  eventId,
  processId,
  ttlMs,
];

/** Presence in table live_presence (REDIS_URL unset); a per-participant advisory lock orders joins and leaves. */
export class PgPresenceStore implements PresenceStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly processId: string,
    private readonly timing: PresenceTiming,
  ) {}

  private locked<T>(eventId: string, participantId: string, fn: (c: pg.PoolClient) => Promise<T>) {
    return withLockedTransaction(this.pool, lockKey(eventId, participantId), fn);
  }

  /**
   * Whether the participant has an entry, expired or not: an expired entry is present until a sweep
   * removes it (and, if it was the last, fires participant.left), so first/last are decided against the
   * same rows the sweep decides against, however late a loaded process renews its entries.
   */
  private async othersPresent(c: pg.PoolClient, eventId: string, participantId: string) {
    const { rows } = await c.query(
      `select 1 from live_presence
        where event_id = $1 and participant_id = $2 limit 1`,
      [eventId, participantId],
    );
    return rows.length > 0;
  }

  /**
   * In the caller's transaction: the participants' advisory locks (in key order, so concurrent batches
   * on any process cannot deadlock), then one statement that tells who had no live entry before and
   * adds this process's connection for each (`joinGroupSql`).
   */
  async joinMany(tx: SqlTx, eventId: string, joins: PresenceJoin[]): Promise<PresenceJoin[]> {
    const infos = joins.map((j) => j.info);
    const lockKeys = infos.map((i) => lockKey(eventId, i.participantId)).sort();
    await sql(
      tx,
      'select pg_advisory_xact_lock(hashtext(k)) from jsonb_array_elements_text(?::jsonb) with ordinality as t(k, n) order by n',
      [JSON.stringify(lockKeys)],
    );
    const rows = await sql<{ participant_id: string }>(
      tx,
      joinGroupSql,
      joinGroupParams(eventId, this.processId, this.timing.ttlMs, infos),
    );
    const first = new Set(rows.map((r) => r.participant_id));
    return joins.filter((j) => first.has(j.info.participantId));
  }

  /** The rows committed, or rolled back, with the transaction's webhooks: nothing is left to settle. */
  async settle(): Promise<void> {}

  leave(eventId: string, participantId: string): Promise<PresenceInfo | null> {
    return this.locked(eventId, participantId, async (c) => {
      const { rows } = await c.query<{ connections: number; info: PresenceInfo }>(
        `with gone as (
           delete from live_presence
            where event_id = $1 and participant_id = $2 and process_id = $3 and connections <= 1
           returning 0 as connections, info),
         fewer as (
           update live_presence set connections = connections - 1
            where event_id = $1 and participant_id = $2 and process_id = $3 and connections > 1
           returning connections, info)
         select * from gone union all select * from fewer`,
        [eventId, participantId, this.processId],
      );
      const row = rows[0];
      if (!row || row.connections > 0) return null;
      return (await this.othersPresent(c, eventId, participantId)) ? null : row.info;
    });
  }

  async list(eventId: string): Promise<PresenceInfo[]> {
    const { rows } = await this.pool.query<{ info: PresenceInfo }>(
      `select distinct on (participant_id) info from live_presence
        where event_id = $1 and expires_at > now()
        order by participant_id, expires_at desc`,
      [eventId],
    );
    return rows.map((r) => r.info);
  }

  async page(eventId: string, after: string, limit: number): Promise<PresenceInfo[]> {
    const { rows } = await this.pool.query<{ info: PresenceInfo }>(
      `select distinct on (participant_id) info from live_presence
        where event_id = $1 and participant_id > $2 and expires_at > now()
        order by participant_id, expires_at desc
        limit $3`,
      [eventId, after, limit],
    );
    return rows.map((r) => r.info);
  }

  async counts(eventId: string): Promise<AudienceCounts> {
    const { rows } = await this.pool.query<{ role: keyof AudienceCounts; n: number }>(
      `select role, count(*)::int as n from (
         select distinct on (participant_id) info->>'role' as role from live_presence
          where event_id = $1 and expires_at > now()
          order by participant_id, expires_at desc) p
        group by role`,
      [eventId],
    );
    const counts = noAudience();
    for (const r of rows) if (r.role in counts) counts[r.role] = r.n;
    return counts;
  }

  async heartbeat(): Promise<void> {
    await this.pool.query(
      'update live_presence set expires_at = now() + make_interval(secs => $2::float8 / 1000) where process_id = $1',
      [this.processId, this.timing.ttlMs],
    );
  }

  /** Every join here committed with its webhook (or not at all): a swept participant was announced. */
  async sweep(): Promise<SweptEntry[]> {
    // DELETE … RETURNING hands each expired row to exactly one sweeping process.
    const { rows } = await this.pool.query<{ event_id: string; participant_id: string; info: PresenceInfo }>(
      `delete from live_presence
        where expires_at <= now()
        returning event_id, participant_id, info`,
    );
    const swept = new Map<string, { eventId: string; participantId: string; info: PresenceInfo }>();
    for (const r of rows)
      swept.set(lockKey(r.event_id, r.participant_id), { eventId: r.event_id, participantId: r.participant_id, info: r.info });
    if (!swept.size) return [];
    // Under the participants' locks (all at once, in key order as joins take them): who has no entry
    // left anywhere. A crashed process's whole audience is one transaction, not one per participant.
    const still = await withTransaction(this.pool, async (c) => {
      await c.query(
        'select pg_advisory_xact_lock(hashtext(k)) from jsonb_array_elements_text($1::jsonb) with ordinality as t(k, n) order by n',
        [JSON.stringify([...swept.keys()].sort())],
      );
      const { rows: present } = await c.query<{ event_id: string; participant_id: string }>(
        `select distinct p.event_id, p.participant_id
           from live_presence p
           join jsonb_to_recordset($1::jsonb) as x(event_id uuid, participant_id text)
             on p.event_id = x.event_id and p.participant_id = x.participant_id`,
        [JSON.stringify([...swept.values()].map((g) => ({ event_id: g.eventId, participant_id: g.participantId })))],
      );
      return new Set(present.map((r) => lockKey(r.event_id, r.participant_id)));
    });
    return [...swept].filter(([key]) => !still.has(key)).map(([, g]) => ({ eventId: g.eventId, info: g.info, last: true }));
  }

  async stop(): Promise<void> {}
}
