import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * The event and its agenda. Services read and write these tables with SQL (row locks, counters);
 * the entities describe the schema for the ORM and for other domains. Foreign keys are scalar ids.
 */
export const Event = defineEntity({
  name: 'Event',
  tableName: 'event',
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    type: p.text(),
    title: p.text(),
    status: p.enum(['draft', 'scheduled', 'live', 'ended'] as const),
    scheduledAt: p.datetime().nullable(),
    scheduledEndAt: p.datetime().nullable(),
    visibility: p.enum(['public', 'unlisted', 'private'] as const),
    allowAnonymousVoting: p.boolean(),
    allowAnonymousQuestions: p.boolean(),
    capacity: p.integer().nullable(),
    registeredCount: p.integer(),
    metadata: p.json<Record<string, unknown>>(),
    activePhaseId: p.uuid().nullable(),
    createdByAccountId: p.uuid().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    publishedAt: p.datetime().nullable(),
    startedAt: p.datetime().nullable(),
    endedAt: p.datetime().nullable(),
  }),
});
export type Event = InferEntity<typeof Event>;

export const Phase = defineEntity({
  name: 'Phase',
  tableName: 'phase',
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    position: p.integer(),
    modality: p.enum(['broadcast', 'meeting', 'breakout', 'rotation'] as const),
    status: p.enum(['pending', 'active', 'ended'] as const),
    featureSet: p.json<string[]>(),
    config: p.json<Record<string, unknown>>(),
    startedAt: p.datetime().nullable(),
    endsAt: p.datetime().nullable(),
    endedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
export type Phase = InferEntity<typeof Phase>;

export const eventEntities = [Event, Phase];
