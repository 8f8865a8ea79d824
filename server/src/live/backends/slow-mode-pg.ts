import type pg from 'pg';
import type { SlowModeStore } from '../control/slow-mode';

/**
 * Slow mode in table live_last_line (REDIS_URL unset): one row per sender of an event. The upsert
 * moves the row only when its line is at least the gap old; a concurrent line of the same sender waits
 * on the row's lock and is then judged against the line that won. PostgreSQL's clock decides.
 */
export class PgSlowModeStore implements SlowModeStore {
  constructor(private readonly pool: pg.Pool) {}

  async claim(
    line: { workspaceId: string; eventId: string; participantId: string },
    gapMs: number,
  ): Promise<number> {
    const { rows } = await this.pool.query<{ claimed: boolean; wait_ms: string | null }>(
      `with claimed as (
         insert into live_last_line as l (workspace_id, event_id, participant_id, sent_at)
         values ($1, $2, $3, clock_timestamp())
         on conflict (event_id, participant_id) do update set sent_at = excluded.sent_at
          where l.sent_at <= excluded.sent_at - $4 * interval '1 millisecond'
         returning 1)
       select exists (select from claimed) as claimed,
              (select ceil(extract(epoch from (sent_at - clock_timestamp())) * 1000 + $4)
                 from live_last_line where event_id = $2 and participant_id = $3) as wait_ms`,
      [line.workspaceId, line.eventId, line.participantId, gapMs],
    );
    const { claimed, wait_ms } = rows[0]!;
    if (claimed) return 0;
    // The line that won may have committed after this statement's snapshot: then a whole gap is left.
    return Math.max(1, Math.min(gapMs, wait_ms === null ? gapMs : Number(wait_ms)));
  }

  async close(): Promise<void> {}
}
