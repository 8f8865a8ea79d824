import { defineEntity, type InferEntity } from '@mikro-orm/core';

export const IdempotencyRecord = defineEntity({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_record',
  properties: (p) => ({
    scope: p.text().primary(),
    key: p.text().primary(),
    requestHash: p.text(),
    status: p.integer().nullable(),
    responseBody: p.json<unknown>().nullable(),
    createdAt: p.datetime(),
  }),
});
export type IdempotencyRecord = InferEntity<typeof IdempotencyRecord>;

/** The outbox: one row per domain event, written in the transaction of the change that caused it. */
export const DomainEvent = defineEntity({
  name: 'DomainEvent',
  tableName: 'domain_event',
  properties: (p) => ({
    id: p.uuid().primary(),
    type: p.text(),
    workspaceId: p.uuid(),
    eventId: p.uuid().nullable(),
    payload: p.json<Record<string, unknown>>(),
    occurredAt: p.datetime(),
  }),
});
export type DomainEvent = InferEntity<typeof DomainEvent>;
