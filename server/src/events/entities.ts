import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * The event and its agenda. Services read and write these tables with SQL (row locks, counters);
 * the entities describe the schema for the ORM and for other domains. Foreign keys are scalar ids.
 */
export const Event = defineEntity({
  name: 'Event',
  tableName: 'event',
  indexes: [
    {
      name: 'event_ended_idx',
      expression:
        "CREATE INDEX event_ended_idx ON public.event USING btree (ended_at) WHERE (status = 'ended'::text)",
    },
    {
      name: 'event_upcoming_idx',
      expression:
        "CREATE INDEX event_upcoming_idx ON public.event USING btree (scheduled_at) WHERE (status = 'scheduled'::text)",
    },
    {
      name: 'event_workspace_created_idx',
      expression:
        'CREATE INDEX event_workspace_created_idx ON public.event USING btree (workspace_id, created_at DESC, id DESC)',
    },
  ],
  checks: [{ name: 'event_capacity_check', expression: '(capacity IS NULL) OR (capacity >= 1)' }],
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    type: p.text(),
    title: p.text(),
    status: p.enum(['draft', 'scheduled', 'live', 'ended'] as const).defaultRaw("'draft'"),
    scheduledAt: p.datetime().nullable(),
    scheduledEndAt: p.datetime().nullable(),
    timezone: p.text().defaultRaw("'UTC'"),
    visibility: p.enum(['public', 'unlisted', 'private'] as const).defaultRaw("'unlisted'"),
    allowAnonymousVoting: p.boolean().defaultRaw('false'),
    allowAnonymousQuestions: p.boolean().defaultRaw('false'),
    capacity: p.integer().nullable(),
    registeredCount: p.integer().defaultRaw('0'),
    metadata: p.json<Record<string, unknown>>().defaultRaw("'{}'"),
    activePhaseId: p.uuid().nullable(),
    createdByAccountId: p.uuid().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
    publishedAt: p.datetime().nullable(),
    startedAt: p.datetime().nullable(),
    endedAt: p.datetime().nullable(),
    canceledAt: p.datetime().nullable(),
    calendarSequence: p.integer().defaultRaw('0'),
  }),
});
export type Event = InferEntity<typeof Event>;

export const Phase = defineEntity({
  name: 'Phase',
  tableName: 'phase',
  indexes: [
    {
      name: 'phase_event_id_position_key',
      expression:
        'CREATE UNIQUE INDEX phase_event_id_position_key ON public.phase USING btree (event_id, "position")',
    },
  ],
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    position: p.integer(),
    modality: p.enum(['broadcast', 'meeting', 'breakout', 'rotation'] as const),
    status: p.enum(['pending', 'active', 'ended'] as const).defaultRaw("'pending'"),
    featureSet: p.json<string[]>().defaultRaw("'[]'"),
    config: p.json<Record<string, unknown>>().defaultRaw("'{}'"),
    startedAt: p.datetime().nullable(),
    endsAt: p.datetime().nullable(),
    endedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type Phase = InferEntity<typeof Phase>;

export const eventEntities = [Event, Phase];
