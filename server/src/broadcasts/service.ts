import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../lib/context';
import { sql } from '../db/sql';
import { lockEvent } from '../events/locks';
import type { EventRow } from '../events/mapping';
import { problem } from '../lib/problem';
import type { Actor } from '../lib/actor';
import { stagePlaybackUrl } from '../lib/media-rooms';
import type { RunningStatus } from './active-broadcast';

/**
 * Start and pause (docs/broadcasts.md). Each call runs in one transaction holding the event row lock,
 * the lock every lifecycle transition takes, so broadcast calls serialize with each other and with
 * advance/end: a broadcast never changes state under a phase that is ending, and every state change
 * writes its webhook (`broadcast.live` / `broadcast.paused`) in the same transaction.
 */
type Ctx = Pick<AppContext, 'bus' | 'config'>;

export interface BroadcastAnswer {
  broadcastId: string;
  eventId: string;
  status: RunningStatus;
  playbackUrl: string;
}

interface BroadcastRow {
  id: string;
  status: 'live' | 'paused' | 'ended';
}

const answer = (ctx: Ctx, eventId: string, id: string, status: RunningStatus): BroadcastAnswer => ({
  broadcastId: id,
  eventId,
  status,
  playbackUrl: stagePlaybackUrl(ctx.config.hlsBaseUrl, eventId),
});

/** The active phase of a live event, which must be a broadcast phase; anything else is invalid_state. */
async function activeBroadcastPhase(tx: EntityManager, event: EventRow, action: string): Promise<string> {
  if (event.status !== 'live' || !event.active_phase_id) {
    throw problem('invalid_state', `Cannot ${action} a broadcast: the event is ${event.status}, not live`);
  }
  const phase = (
    await sql<{ modality: string }>(tx, `select modality from phase where id = ? and status = 'active'`, [
      event.active_phase_id,
    ])
  )[0];
  if (phase?.modality !== 'broadcast') {
    throw problem(
      'invalid_state',
      `Cannot ${action} a broadcast: the active phase is ${phase ? `a ${phase.modality}` : 'missing'}, not a broadcast`,
    );
  }
  return event.active_phase_id;
}

const broadcastOfPhase = async (tx: EntityManager, phaseId: string) =>
  (await sql<BroadcastRow>(tx, 'select id, status from broadcast where phase_id = ?', [phaseId]))[0];

/**
 * Streams the active broadcast phase: creates its broadcast on the first call, resumes it (same id)
 * when paused, and answers the current state unchanged, without a webhook, when it is already live.
 */
export function startBroadcast(
  ctx: Ctx,
  em: EntityManager,
  actor: Actor,
  eventId: string,
): Promise<BroadcastAnswer> {
  return em.transactional(async (tx) => {
    const event = await lockEvent(tx, actor, eventId);
    const phaseId = await activeBroadcastPhase(tx, event, 'start');
    const existing = await broadcastOfPhase(tx, phaseId);
    if (existing?.status === 'live') return answer(ctx, eventId, existing.id, 'live');
    // The phase trigger ends a broadcast only together with its phase, and that phase is active.
    if (existing?.status === 'ended') throw problem('invalid_state', 'This broadcast has ended');

    const now = new Date();
    const id = existing?.id ?? randomUUID();
    if (existing) {
      await sql(tx, `update broadcast set status = 'live', live_at = ?, updated_at = now() where id = ?`, [
        now,
        id,
      ]);
    } else {
      await sql(
        tx,
        `insert into broadcast (id, event_id, phase_id, status, live_at, created_at, updated_at)
         values (?, ?, ?, 'live', ?, ?, ?)`,
        [id, eventId, phaseId, now, now, now],
      );
    }
    const state = answer(ctx, eventId, id, 'live');
    await ctx.bus.record(tx, {
      type: 'broadcast.live',
      workspaceId: event.workspace_id,
      eventId,
      occurredAt: now,
      data: { broadcastId: id, playbackUrl: state.playbackUrl },
    });
    return state;
  });
}

/** Pauses the live broadcast of the active broadcast phase; anything but a live broadcast is invalid_state. */
export function pauseBroadcast(
  ctx: Ctx,
  em: EntityManager,
  actor: Actor,
  eventId: string,
): Promise<BroadcastAnswer> {
  return em.transactional(async (tx) => {
    const event = await lockEvent(tx, actor, eventId);
    const phaseId = await activeBroadcastPhase(tx, event, 'pause');
    const existing = await broadcastOfPhase(tx, phaseId);
    if (existing?.status !== 'live') {
      throw problem(
        'invalid_state',
        existing?.status === 'paused'
          ? 'The broadcast is already paused'
          : 'Cannot pause a broadcast that has not been started',
      );
    }
    const now = new Date();
    await sql(tx, `update broadcast set status = 'paused', paused_at = ?, updated_at = now() where id = ?`, [
      now,
      existing.id,
    ]);
    await ctx.bus.record(tx, {
      type: 'broadcast.paused',
      workspaceId: event.workspace_id,
      eventId,
      occurredAt: now,
      data: { broadcastId: existing.id },
    });
    return answer(ctx, eventId, existing.id, 'paused');
  });
}
