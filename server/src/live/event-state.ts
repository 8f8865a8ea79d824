import type { EventRole, Feature, Modality } from '@gathercast/contract';
import type { Queryable } from '../db/pool';
import { narrowRole } from '../events/roles';
import {
  type RoomControlState,
  type RoomStateRow,
  roomStateColumns,
  roomStateOf,
} from './control/room-state';

export interface LivePhase {
  id: string;
  position: number;
  modality: Modality;
  status: 'pending' | 'active' | 'ended';
  featureSet: Feature[];
  config: Record<string, unknown>;
  startedAt: Date | null;
}

/** What the gateway needs to know about an event, read fresh from the database. */
export interface LiveEvent {
  id: string;
  workspaceId: string;
  title: string;
  status: 'draft' | 'scheduled' | 'live' | 'ended';
  allowAnonymousQuestions: boolean;
  allowAnonymousVoting: boolean;
  activePhase: LivePhase | null;
  /**
   * The phase whose rules apply now: the active one, or before the start the first one (so a
   * waiting room already behaves like the opening phase); null after the end or without phases.
   */
  governingPhase: LivePhase | null;
  /** Hosts and speakers with a name, by their stored event role (read with the event, so joins share it). */
  castMembers: { name: string; role: EventRole }[];
  /** Bans, removals, mutes and the room's chat settings (live/control/). */
  control: RoomControlState;
}

interface PhaseJson {
  id: string;
  position: number;
  modality: Modality;
  status: LivePhase['status'];
  feature_set: Feature[];
  config: Record<string, unknown>;
  /** An ISO timestamp: rows built into JSON carry dates as text. */
  started_at: string | null;
}

interface EventRow extends RoomStateRow {
  id: string;
  workspace_id: string;
  title: string;
  status: LiveEvent['status'];
  allow_anonymous_questions: boolean;
  allow_anonymous_voting: boolean;
  active_phase_id: string | null;
  phases: PhaseJson[];
  cast_members: { name: string; role: EventRole }[];
}

const toPhase = (r: PhaseJson): LivePhase => ({
  id: r.id,
  position: r.position,
  modality: r.modality,
  status: r.status,
  featureSet: r.feature_set,
  config: r.config,
  startedAt: r.started_at === null ? null : new Date(r.started_at),
});

/**
 * The event, its phases and its cast in ONE statement: one round trip (a read that waits on a busy
 * database waits once, not three times: a host's message after a cache expiry waits on it) and one
 * snapshot (phases and status read at the same moment).
 */
const liveEventSql = `
  select e.id, e.workspace_id, e.title, e.status, e.allow_anonymous_questions, e.allow_anonymous_voting,
         e.active_phase_id,
         coalesce((
           select json_agg(json_build_object(
                    'id', p.id, 'position', p.position, 'modality', p.modality, 'status', p.status,
                    'feature_set', p.feature_set, 'config', p.config, 'started_at', p.started_at)
                  order by p.position)
             from phase p where p.event_id = e.id), '[]'::json) as phases,
         coalesce((
           select json_agg(json_build_object('name', u.name, 'role', m.role)
                  order by case m.role when 'host' then 0 else 1 end, m.created_at, m.id)
             from event_membership m join app_user u on u.id = m.user_id
            where m.event_id = e.id and m.role in ('host', 'speaker') and u.name is not null), '[]'::json) as cast_members,
         ${roomStateColumns}
    from event e where e.id = $1`;

export async function loadLiveEvent(db: Queryable, eventId: string): Promise<LiveEvent | null> {
  const { rows } = await db.query<EventRow>(liveEventSql, [eventId]);
  const e = rows[0];
  if (!e) return null;
  const phases = e.phases.map(toPhase);
  const activePhase = phases.find((p) => p.id === e.active_phase_id) ?? null;
  const governingPhase =
    e.status === 'ended' ? null : (activePhase ?? (e.status === 'live' ? null : (phases[0] ?? null)));
  return {
    id: e.id,
    workspaceId: e.workspace_id,
    title: e.title,
    status: e.status,
    allowAnonymousQuestions: e.allow_anonymous_questions,
    allowAnonymousVoting: e.allow_anonymous_voting,
    activePhase,
    governingPhase,
    castMembers: e.cast_members,
    control: roomStateOf(e),
  };
}

/** A role (the token's stored role, or a membership's) read for the phase that governs now. */
export const roleIn = (event: LiveEvent, role: EventRole): EventRole =>
  event.governingPhase ? narrowRole(role, event.governingPhase.modality) : role;

/** Hosts and speakers by name, as they read in the governing phase (a speaker in a call is no cast). */
export function castOf(event: LiveEvent): { name: string; role: EventRole }[] {
  return event.castMembers
    .map((c) => ({ name: c.name, role: roleIn(event, c.role) }))
    .filter((c) => c.role === 'host' || c.role === 'speaker');
}
