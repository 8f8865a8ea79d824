import type pg from 'pg';
import { withLockedTransaction } from '../db/pool';
import {
  type AudienceCounts,
  noAudience,
  type PresenceInfo,
  type PresenceStore,
  type PresenceTiming,
} from './presence-store';

/** Presence in table live_presence (REDIS_URL unset); a per-participant advisory lock orders joins and leaves. */
export class PgPresenceStore implements PresenceStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly processId: string,
    private readonly timing: PresenceTiming,
  ) {}

  private locked<T>(eventId: string, participantId: string, fn: (c: pg.PoolClient) => Promise<T>) {
    return withLockedTransaction(this.pool, `live:${eventId}:${participantId}`, fn);
  }

  private async othersPresent(c: pg.PoolClient, eventId: string, participantId: string) {
    const { rows } = await c.query(
      `select 1 from live_presence
        where event_id = $1 and participant_id = $2
          and expires_at > now() limit 1`,
      [eventId, participantId],
    );
    return rows.length > 0;
  }

  join(eventId: string, info: PresenceInfo): Promise<boolean> {
    return this.locked(eventId, info.participantId, async (c) => {
      const present = await this.othersPresent(c, eventId, info.participantId);
      await c.query(
        `insert into live_presence (event_id, participant_id, process_id, connections, info, expires_at)
         values ($1, $2, $3, 1, $4, now() + make_interval(secs => $5::float8 / 1000))
         on conflict (event_id, participant_id, process_id)
         do update set connections = live_presence.connections + 1, info = excluded.info,
                       expires_at = excluded.expires_at`,
        [eventId, info.participantId, this.processId, JSON.stringify(info), this.timing.ttlMs],
      );
      return !present;
    });
  }

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

  async sweep(): Promise<{ eventId: string; info: PresenceInfo }[]> {
    // DELETE … RETURNING hands each expired row to exactly one sweeping process.
    const { rows } = await this.pool.query<{ event_id: string; participant_id: string; info: PresenceInfo }>(
      `delete from live_presence
        where expires_at <= now()
        returning event_id, participant_id, info`,
    );
    const gone: { eventId: string; info: PresenceInfo }[] = [];
    const seen = new Set<string>();
    for (const r of rows) {
      const key = `${r.event_id}/${r.participant_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const still = await this.locked(r.event_id, r.participant_id, (c) =>
        this.othersPresent(c, r.event_id, r.participant_id),
      );
      if (!still) gone.push({ eventId: r.event_id, info: r.info });
    }
    return gone;
  }

  async stop(): Promise<void> {}
}
