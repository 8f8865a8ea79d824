import type { Event, EventWithPhases, Phase } from '@gathercast/contract';
import { iso } from '../db/sql';

export interface EventRow {
  id: string;
  workspace_id: string;
  type: string;
  title: string;
  status: Event['status'];
  scheduled_at: Date | null;
  scheduled_end_at: Date | null;
  timezone: string;
  visibility: Event['visibility'];
  allow_anonymous_voting: boolean;
  allow_anonymous_questions: boolean;
  capacity: number | null;
  registered_count: number;
  metadata: Record<string, unknown>;
  active_phase_id: string | null;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  started_at: Date | null;
  ended_at: Date | null;
  canceled_at: Date | null;
  calendar_sequence: number;
}

export interface PhaseRow {
  id: string;
  event_id: string;
  position: number;
  modality: Phase['modality'];
  status: Phase['status'];
  feature_set: Phase['featureSet'];
  config: Record<string, unknown>;
  started_at: Date | null;
  ends_at: Date | null;
  ended_at: Date | null;
}

/** The columns every event response needs (the list and the single read share them). */
export const eventColumns = `id, workspace_id, type, title, status, scheduled_at, scheduled_end_at, timezone, visibility,
  allow_anonymous_voting, allow_anonymous_questions, capacity, registered_count, metadata, active_phase_id,
  created_at, updated_at, published_at, started_at, ended_at, canceled_at, calendar_sequence`;

export const phaseColumns =
  'id, event_id, position, modality, status, feature_set, config, started_at, ends_at, ended_at';

export function toEvent(r: EventRow): Event {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    type: r.type,
    title: r.title,
    status: r.status,
    scheduledAt: iso(r.scheduled_at),
    scheduledEndAt: iso(r.scheduled_end_at),
    timezone: r.timezone,
    visibility: r.visibility,
    allowAnonymousVoting: r.allow_anonymous_voting,
    allowAnonymousQuestions: r.allow_anonymous_questions,
    capacity: r.capacity,
    metadata: r.metadata ?? {},
    activePhaseId: r.active_phase_id,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    publishedAt: iso(r.published_at),
    startedAt: iso(r.started_at),
    endedAt: iso(r.ended_at),
    canceledAt: iso(r.canceled_at),
  };
}

export function toPhase(r: PhaseRow): Phase {
  return {
    id: r.id,
    eventId: r.event_id,
    position: r.position,
    modality: r.modality,
    status: r.status,
    featureSet: r.feature_set ?? [],
    config: r.config ?? {},
    startedAt: iso(r.started_at),
    endsAt: iso(r.ends_at),
    endedAt: iso(r.ended_at),
  };
}

export const withPhases = (event: EventRow, phases: PhaseRow[]): EventWithPhases => ({
  ...toEvent(event),
  phases: phases.map(toPhase),
});
