import type { ChatMode, EventRole } from '@gathercast/contract';
import type { GatewayClaims } from '../../gateway/tokens';
import { isModerator } from '../media';

/**
 * The room-control state of one event, read with the event itself (live/event-state.ts), so every
 * process holds it in the same once-a-second cache; a change anywhere publishes a `room.changed`
 * notice and every process drops its copy at once (docs/live.md, "Running the room").
 */
export interface RoomControlState {
  /** participantId → why, for the rest of the event. */
  banned: Map<string, string | null>;
  /** Client addresses banned with a participant. */
  bannedAddresses: Set<string>;
  /** participantId → when they were last removed (ms): tokens issued before are refused. */
  removedAt: Map<string, number>;
  muted: Set<string>;
  /** Set for the event over REST or by a host; null: the governing phase's config. */
  chatMode: ChatMode | null;
  slowModeSeconds: number | null;
}

/** Columns of the live event statement (`e` is the event row): the sanctions and the room's settings. */
export const roomStateColumns = `
         coalesce((
           select json_agg(json_build_object('p', s.participant_id, 'k', s.kind, 'a', s.client_address,
                    'r', s.reason, 't', (extract(epoch from s.created_at) * 1000)::bigint))
             from live_sanction s where s.event_id = e.id), '[]'::json) as sanctions,
         (select json_build_object('mode', r.chat_mode, 'slow', r.slow_mode_seconds)
            from live_room r where r.event_id = e.id) as room`;

export interface RoomStateRow {
  sanctions: { p: string; k: 'removal' | 'ban' | 'mute'; a: string | null; r: string | null; t: number }[];
  room: { mode: ChatMode | null; slow: number | null } | null;
}

export function roomStateOf(row: RoomStateRow): RoomControlState {
  const state: RoomControlState = {
    banned: new Map(),
    bannedAddresses: new Set(),
    removedAt: new Map(),
    muted: new Set(),
    chatMode: row.room?.mode ?? null,
    slowModeSeconds: row.room?.slow ?? null,
  };
  for (const s of row.sanctions) {
    if (s.k === 'ban') {
      state.banned.set(s.p, s.r);
      if (s.a) state.bannedAddresses.add(s.a);
    } else if (s.k === 'removal') state.removedAt.set(s.p, Number(s.t));
    else state.muted.add(s.p);
  }
  return state;
}

/**
 * Why a socket may not join, or null: a banned participant or address, or a token issued before the
 * participant's removal (they come back only with a token issued after it).
 */
export function admissionRefusal(
  state: RoomControlState,
  claims: Pick<GatewayClaims, 'participantId' | 'issuedAt'>,
  clientAddress: string | undefined,
): string | null {
  if (state.banned.has(claims.participantId) || (clientAddress && state.bannedAddresses.has(clientAddress)))
    return 'You are banned from this event';
  const removedAt = state.removedAt.get(claims.participantId);
  if (removedAt !== undefined && (claims.issuedAt ?? 0) <= removedAt)
    return 'You were removed from this event; this token was issued before the removal';
  return null;
}

/** The chat rules in force: the event's setting, else the governing phase's `config.chat`, else open. */
export function chatSettings(
  state: RoomControlState,
  phaseConfig: Record<string, unknown> | undefined,
): { chatMode: ChatMode; slowModeSeconds: number } {
  const phase = (phaseConfig?.chat ?? {}) as { mode?: ChatMode; slowModeSeconds?: number };
  return {
    chatMode: state.chatMode ?? phase.mode ?? 'open',
    slowModeSeconds: state.slowModeSeconds ?? phase.slowModeSeconds ?? 0,
  };
}

const audienceRoles: readonly EventRole[] = ['viewer', 'participant'];

/** Whether a role may chat under a chat mode. */
export function mayChat(mode: ChatMode, role: EventRole): boolean {
  if (mode === 'moderators_only') return isModerator(role);
  if (mode === 'audience_locked') return !audienceRoles.includes(role);
  return true;
}
