import type { EventWithPhases, WebhookEventType } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import type { Actor } from '../lib/actor';
import type { AppContext } from '../lib/context';
import { invalidField, problem } from '../lib/problem';
import { timerSeconds } from '../phases/config';
import { queueEmailsToSeatHolders } from '../registrations/changes';
import { lockEvent, phasesOf } from './locks';
import { type EventRow, eventColumns, type PhaseRow, phaseColumns, withPhases } from './mapping';

/**
 * The event state machine (docs/events.md, "Lifecycle"). Every transition runs in one
 * transaction holding the event row lock, records its time and writes its domain event in the
 * same transaction, so concurrent calls serialize and never corrupt the agenda.
 */
type Bus = Pick<AppContext, 'bus'>;

async function current(tx: EntityManager, eventId: string): Promise<EventWithPhases> {
  const rows = await sql<EventRow>(tx, `select ${eventColumns} from event where id = ?`, [eventId]);
  return withPhases(rows[0]!, await phasesOf(tx, eventId));
}

function wrongState(action: string, status: string, allowed: string): never {
  throw problem('invalid_state', `Cannot ${action} an event that is ${status}; ${action} needs ${allowed}`);
}

const emit = (ctx: Bus, tx: EntityManager, event: EventRow, type: WebhookEventType, occurredAt: Date) =>
  ctx.bus.record(tx, { type, workspaceId: event.workspace_id, eventId: event.id, occurredAt });

/** Activates the first pending phase (lowest position), if any; returns its id. */
async function activateNextPhase(tx: EntityManager, eventId: string, now: Date): Promise<string | null> {
  const next = (
    await sql<PhaseRow>(
      tx,
      `select ${phaseColumns} from phase where event_id = ? and status = 'pending' order by position limit 1`,
      [eventId],
    )
  )[0];
  if (!next) return null;
  const seconds = timerSeconds(next.modality, next.config);
  await sql(
    tx,
    `update phase set status = 'active', started_at = ?, ends_at = ?, updated_at = now() where id = ?`,
    [now, seconds === null ? null : new Date(now.getTime() + seconds * 1000), next.id],
  );
  return next.id;
}

async function endActivePhase(tx: EntityManager, event: EventRow, now: Date): Promise<void> {
  if (!event.active_phase_id) return;
  await sql(
    tx,
    `update phase set status = 'ended', ended_at = ?, updated_at = now() where id = ? and status = 'active'`,
    [now, event.active_phase_id],
  );
}

async function endEvent(ctx: Bus, tx: EntityManager, event: EventRow, now: Date): Promise<void> {
  await endActivePhase(tx, event, now);
  await sql(
    tx,
    `update event set status = 'ended', ended_at = ?, active_phase_id = null, updated_at = now() where id = ?`,
    [now, event.id],
  );
  await emit(ctx, tx, event, 'event.ended', now);
}

async function cancelEvent(ctx: Bus, tx: EntityManager, event: EventRow, now: Date): Promise<void> {
  await sql(
    tx,
    `update event set status = 'ended', ended_at = ?, canceled_at = ?, calendar_sequence = calendar_sequence + 1,
       updated_at = now() where id = ?`,
    [now, now, event.id],
  );
  await emit(ctx, tx, event, 'event.canceled', now);
  await queueEmailsToSeatHolders(tx, 'canceled', event.id);
}

/** draft → scheduled; fires event.published. */
export function publishEvent(
  ctx: Bus,
  em: EntityManager,
  actor: Actor,
  eventId: string,
): Promise<EventWithPhases> {
  return em.transactional(async (tx) => {
    const event = await lockEvent(tx, actor, eventId);
    if (event.status !== 'draft') wrongState('publish', event.status, 'draft');
    const now = new Date();
    await sql(
      tx,
      `update event set status = 'scheduled', published_at = ?, updated_at = now() where id = ?`,
      [now, eventId],
    );
    await emit(ctx, tx, event, 'event.published', now);
    return current(tx, eventId);
  });
}

/** scheduled → live, activating the first phase if the event has one; fires event.started. */
export function startEvent(
  ctx: Bus,
  em: EntityManager,
  actor: Actor,
  eventId: string,
): Promise<EventWithPhases> {
  return em.transactional(async (tx) => {
    const event = await lockEvent(tx, actor, eventId);
    if (event.status !== 'scheduled') wrongState('start', event.status, 'scheduled');
    const now = new Date();
    const active = await activateNextPhase(tx, eventId, now);
    await sql(
      tx,
      `update event set status = 'live', started_at = ?, active_phase_id = ?, updated_at = now() where id = ?`,
      [now, active, eventId],
    );
    await emit(ctx, tx, event, 'event.started', now);
    return current(tx, eventId);
  });
}

/**
 * Ends the active phase and starts the next; with no next phase the event ends (event.ended).
 * With a `phaseId` guard it moves only while that phase is still active, and otherwise answers
 * the current state unchanged (also once the event has ended), so it never skips a phase.
 */
export function advanceEvent(
  ctx: Bus,
  em: EntityManager,
  actor: Actor,
  eventId: string,
  guardPhaseId?: string,
): Promise<EventWithPhases> {
  return em.transactional(async (tx) => {
    const event = await lockEvent(tx, actor, eventId);
    if (event.status === 'draft' || event.status === 'scheduled') wrongState('advance', event.status, 'live');
    if (guardPhaseId !== undefined) {
      const owned = await sql(tx, 'select 1 from phase where id = ? and event_id = ?', [
        guardPhaseId,
        eventId,
      ]);
      if (!owned[0]) {
        throw invalidField(
          'body.phaseId',
          'invalid_value',
          'Not a phase of this event',
          'phaseId is not a phase of this event',
        );
      }
      if (event.status !== 'live' || event.active_phase_id !== guardPhaseId) return current(tx, eventId);
    } else if (event.status === 'ended') {
      wrongState('advance', event.status, 'live');
    }
    const now = new Date();
    await endActivePhase(tx, event, now);
    const next = await activateNextPhase(tx, eventId, now);
    if (next)
      await sql(tx, 'update event set active_phase_id = ?, updated_at = now() where id = ?', [next, eventId]);
    else await endEvent(ctx, tx, event, now);
    return current(tx, eventId);
  });
}

/**
 * live → ended (ends the active phase; fires event.ended), or scheduled → ended, a cancellation:
 * canceledAt is set, the calendar sequence raised, event.canceled fires (not event.ended) and every
 * registrant with a seat is emailed a calendar cancellation.
 */
export function endEventNow(
  ctx: Bus,
  em: EntityManager,
  actor: Actor,
  eventId: string,
): Promise<EventWithPhases> {
  return em.transactional(async (tx) => {
    const event = await lockEvent(tx, actor, eventId);
    if (event.status !== 'live' && event.status !== 'scheduled')
      wrongState('end', event.status, 'live or scheduled');
    if (event.status === 'live') await endEvent(ctx, tx, event, new Date());
    else await cancelEvent(ctx, tx, event, new Date());
    return current(tx, eventId);
  });
}
