import { defineEntity, type InferEntity } from '@mikro-orm/core';

export const IdempotencyRecord = defineEntity({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_record',
  indexes: [{ name: 'idempotency_record_created_idx', properties: ['createdAt'] }],
  properties: (p) => ({
    scope: p.text().primary(),
    key: p.text().primary(),
    requestHash: p.text(),
    status: p.integer().nullable(),
    responseBody: p.json<unknown>().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type IdempotencyRecord = InferEntity<typeof IdempotencyRecord>;

/** The outbox: one row per domain event, written in the transaction of the change that caused it. */
export const DomainEvent = defineEntity({
  name: 'DomainEvent',
  tableName: 'domain_event',
  indexes: [
    {
      name: 'domain_event_presence_idx',
      expression:
        "CREATE INDEX domain_event_presence_idx ON public.domain_event USING btree (event_id, occurred_at) WHERE (type = ANY (ARRAY['participant.joined'::text, 'participant.left'::text]))",
    },
    {
      name: 'domain_event_workspace_idx',
      expression:
        'CREATE INDEX domain_event_workspace_idx ON public.domain_event USING btree (workspace_id, occurred_at DESC)',
    },
  ],
  uniques: [{ name: 'domain_event_workspace_seq_idx', properties: ['workspaceId', 'seq'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    type: p.text(),
    workspaceId: p.uuid(),
    eventId: p.uuid().nullable(),
    payload: p.json<Record<string, unknown>>(),
    occurredAt: p.datetime().defaultRaw('now()'),
    /** Its number in the workspace's sequence (1, 2, 3, … with no gaps), given with `workspace_event_seq`. */
    seq: p.bigint('string').nullable(),
  }),
});
export type DomainEvent = InferEntity<typeof DomainEvent>;

/** The last number given in each workspace's domain-event sequence. */
export const WorkspaceEventSeq = defineEntity({
  name: 'WorkspaceEventSeq',
  tableName: 'workspace_event_seq',
  properties: (p) => ({
    workspaceId: p.uuid().primary(),
    lastSeq: p.bigint('string'),
  }),
});
export type WorkspaceEventSeq = InferEntity<typeof WorkspaceEventSeq>;

/**
 * A key-value store for service-wide keys from the first migration. No code reads or writes it
 * today; it is declared so the entities describe the whole schema until a migration drops it.
 */
export const ServiceKey = defineEntity({
  name: 'ServiceKey',
  tableName: 'service_key',
  properties: (p) => ({
    id: p.text().primary(),
    value: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type ServiceKey = InferEntity<typeof ServiceKey>;
