import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * A broadcast: the stream of one broadcast phase to the watch-only HLS audience. The service reads
 * and writes it with SQL under the event row lock; the entity describes the schema for the ORM.
 */
export const Broadcast = defineEntity({
  name: 'Broadcast',
  tableName: 'broadcast',
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    phaseId: p.uuid(),
    status: p.enum(['live', 'paused', 'ended'] as const),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    liveAt: p.datetime(),
    pausedAt: p.datetime().nullable(),
    endedAt: p.datetime().nullable(),
  }),
});
export type Broadcast = InferEntity<typeof Broadcast>;

export const broadcastEntities = [Broadcast];
