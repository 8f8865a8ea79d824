import type { SqlTx } from '../db/sql';
import { sql } from '../db/sql';
import type { AppContext } from '../lib/context';
import { problem } from '../lib/problem';
import { queueEmails, recordUpdated } from './changes';
import type { SettingsRow } from './settings';

type Bus = Pick<AppContext, 'bus'>;

/** What seats decisions read of the event; the caller holds its row lock (`select … for update`). */
export interface SeatedEvent {
  id: string;
  workspace_id: string;
  capacity: number | null;
  registered_count: number;
}

const hasSeat = (e: SeatedEvent) => e.capacity === null || e.registered_count < e.capacity;

/**
 * The status of a new (or re-activated) registration: pending when a member approves registrations;
 * else a seat while one is free; else the waiting list when the event keeps one; else 409 event_full.
 */
export function statusForNew(
  event: SeatedEvent,
  settings: SettingsRow,
): 'registered' | 'pending_approval' | 'waitlisted' {
  if (settings.requires_approval) return 'pending_approval';
  return admission(event, settings);
}

/** A seat, or the waiting list, or event_full. */
export function admission(
  event: SeatedEvent,
  settings: Pick<SettingsRow, 'waitlist'>,
): 'registered' | 'waitlisted' {
  if (hasSeat(event)) return 'registered';
  if (settings.waitlist) return 'waitlisted';
  throw problem('event_full', `This event is full (capacity ${event.capacity})`);
}

export const takeSeat = (tx: SqlTx, eventId: string) =>
  sql(tx, 'update event set registered_count = registered_count + 1 where id = ?', [eventId]);

/**
 * Gives free seats to the waiting list, oldest first, under the event row lock the caller holds, so
 * two seats freed at once go to two different people and never past the capacity. Each promoted
 * registrant gets registration.updated (promoted) and an email with their join link.
 */
export async function promoteWaitlist(ctx: Bus, tx: SqlTx, eventId: string): Promise<void> {
  const [event] = await sql<SeatedEvent>(
    tx,
    'select id, workspace_id, capacity, registered_count from event where id = ?',
    [eventId],
  );
  if (!event) return;
  const free = event.capacity === null ? 1_000_000_000 : event.capacity - event.registered_count;
  if (free <= 0) return;
  const promoted = await sql<{ id: string }>(
    tx,
    `with next as (
       select id from registration where event_id = ? and status = 'waitlisted'
        order by waitlisted_at, id limit ? for update)
     update registration r set status = 'registered', waitlisted_at = null, updated_at = now()
       from next where r.id = next.id returning r.id`,
    [eventId, free],
  );
  if (!promoted.length) return;
  await sql(tx, 'update event set registered_count = registered_count + ? where id = ?', [
    promoted.length,
    eventId,
  ]);
  const ids = promoted.map((p) => p.id);
  await recordUpdated(
    ctx,
    tx,
    ids.map((id) => ({ id, workspaceId: event.workspace_id, eventId, status: 'registered' as const })),
    'promoted',
  );
  await queueEmails(tx, 'admitted', ids);
}

/** A seat holder left (canceled): the seat is freed and goes to the waiting list. */
export async function freeSeat(ctx: Bus, tx: SqlTx, eventId: string): Promise<void> {
  await sql(tx, 'update event set registered_count = registered_count - 1 where id = ?', [eventId]);
  await promoteWaitlist(ctx, tx, eventId);
}
