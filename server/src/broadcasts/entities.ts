import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * A broadcast: the stream of one broadcast phase to the watch-only HLS audience. The service reads
 * and writes it with SQL under the event row lock; the entity describes the schema for the ORM.
 */
export const Broadcast = defineEntity({
  name: 'Broadcast',
  tableName: 'broadcast',
  indexes: [
    {
      name: 'broadcast_running_event_idx',
      expression:
        "CREATE UNIQUE INDEX broadcast_running_event_idx ON public.broadcast USING btree (event_id) WHERE (status <> 'ended'::text)",
    },
  ],
  uniques: [{ name: 'broadcast_phase_id_key', properties: ['phaseId'] }],
  checks: [{ name: 'broadcast_check', expression: "(status = 'ended'::text) = (ended_at IS NOT NULL)" }],
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    phaseId: p.uuid(),
    status: p.enum(['live', 'paused', 'ended'] as const),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
    liveAt: p.datetime(),
    pausedAt: p.datetime().nullable(),
    endedAt: p.datetime().nullable(),
  }),
});
export type Broadcast = InferEntity<typeof Broadcast>;

export const broadcastEntities = [Broadcast];
