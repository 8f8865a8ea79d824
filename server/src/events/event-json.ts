import type { JsonField } from '../db/json-rows';

/**
 * The event response object (`toEvent` in mapping.ts) as PostgreSQL renders it for the list: the same
 * keys in the same order and the same value formats. Change both together; the events list tests
 * compare the list's JSON with the single read's, byte for byte.
 */
export const eventJsonFields: readonly JsonField[] = [
  { key: 'id', column: 'id', kind: 'uuid' },
  { key: 'workspaceId', column: 'workspace_id', kind: 'uuid' },
  { key: 'type', column: 'type', kind: 'text' },
  { key: 'title', column: 'title', kind: 'text' },
  { key: 'status', column: 'status', kind: 'enum' },
  { key: 'scheduledAt', column: 'scheduled_at', kind: 'timestamp' },
  { key: 'scheduledEndAt', column: 'scheduled_end_at', kind: 'timestamp' },
  { key: 'timezone', column: 'timezone', kind: 'text' },
  { key: 'visibility', column: 'visibility', kind: 'enum' },
  { key: 'allowAnonymousVoting', column: 'allow_anonymous_voting', kind: 'boolean' },
  { key: 'allowAnonymousQuestions', column: 'allow_anonymous_questions', kind: 'boolean' },
  { key: 'capacity', column: 'capacity', kind: 'integer' },
  { key: 'metadata', column: 'metadata', kind: 'jsonb' },
  { key: 'activePhaseId', column: 'active_phase_id', kind: 'uuid' },
  { key: 'createdAt', column: 'created_at', kind: 'timestamp' },
  { key: 'updatedAt', column: 'updated_at', kind: 'timestamp' },
  { key: 'publishedAt', column: 'published_at', kind: 'timestamp' },
  { key: 'startedAt', column: 'started_at', kind: 'timestamp' },
  { key: 'endedAt', column: 'ended_at', kind: 'timestamp' },
  { key: 'canceledAt', column: 'canceled_at', kind: 'timestamp' },
];
