import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import { problem } from '../lib/problem';

/**
 * A participant banned from the event gets no gateway token from any route that knows who they are
 * (docs/live.md, "Running the room"); the live gateway refuses their sockets as well.
 */
export async function refuseBanned(em: EntityManager, eventId: string, participantId: string): Promise<void> {
  const [ban] = await sql(
    em,
    `select 1 from live_sanction where event_id = ? and participant_id = ? and kind = 'ban'`,
    [eventId, participantId],
  );
  if (ban) throw problem('forbidden', 'This participant is banned from the event');
}
