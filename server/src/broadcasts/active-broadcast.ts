import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import { stagePlaybackUrl } from '../lib/media-rooms';

export type RunningStatus = 'live' | 'paused';

/** The broadcast as the API shows it (start, pause and the public view). */
export interface BroadcastState {
  broadcastId: string;
  status: RunningStatus;
  playbackUrl: string;
}

/**
 * The running broadcast of an event, or null. Besides the broadcast's own status (the phase trigger
 * ends it with its phase), the join insists on a live event whose active phase is the broadcast's
 * phase, so the answer cannot outlive the phase even for a moment.
 */
export async function activeBroadcastOf(
  em: EntityManager,
  hlsBaseUrl: string,
  eventId: string,
): Promise<BroadcastState | null> {
  const rows = await sql<{ id: string; status: RunningStatus }>(
    em,
    `select b.id, b.status from broadcast b
       join event e on e.id = b.event_id and e.status = 'live' and e.active_phase_id = b.phase_id
       join phase p on p.id = b.phase_id and p.status = 'active'
      where b.event_id = ? and b.status in ('live', 'paused')`,
    [eventId],
  );
  const row = rows[0];
  return row
    ? { broadcastId: row.id, status: row.status, playbackUrl: stagePlaybackUrl(hlsBaseUrl, eventId) }
    : null;
}
