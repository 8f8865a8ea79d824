import type { EventRole, Feature, Modality } from '@gathercast/contract';
import type { Queryable } from '../db/pool';
import { narrowRole } from '../events/roles';

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
}

interface EventRow {
  id: string;
  workspace_id: string;
  title: string;
  status: LiveEvent['status'];
  allow_anonymous_questions: boolean;
  allow_anonymous_voting: boolean;
  active_phase_id: string | null;
}

interface PhaseRow {
  id: string;
  position: number;
  modality: Modality;
  status: LivePhase['status'];
  feature_set: Feature[];
  config: Record<string, unknown>;
  started_at: Date | null;
}

const toPhase = (r: PhaseRow): LivePhase => ({
  id: r.id,
  position: r.position,
  modality: r.modality,
  status: r.status,
  featureSet: r.feature_set,
  config: r.config,
  startedAt: r.started_at,
});

export async function loadLiveEvent(db: Queryable, eventId: string): Promise<LiveEvent | null> {
  const { rows } = await db.query<EventRow>(
    `select id, workspace_id, title, status, allow_anonymous_questions, allow_anonymous_voting, active_phase_id
       from event where id = $1`,
    [eventId],
  );
  const e = rows[0];
  if (!e) return null;
  const phases = (
    await db.query<PhaseRow>(
      `select id, position, modality, status, feature_set, config, started_at
         from phase where event_id = $1 order by position`,
      [eventId],
    )
  ).rows.map(toPhase);
  const castMembers = (
    await db.query<{ name: string; role: EventRole }>(
      `select u.name, m.role
         from event_membership m join app_user u on u.id = m.user_id
        where m.event_id = $1 and m.role in ('host', 'speaker') and u.name is not null
        order by case m.role when 'host' then 0 else 1 end, m.created_at, m.id`,
      [eventId],
    )
  ).rows;
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
    castMembers,
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
