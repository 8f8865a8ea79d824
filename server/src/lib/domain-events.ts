import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A fact about a workspace, recorded in the transaction of the change that caused it. */
export interface DomainEventInput {
  type: WebhookEventType;
  workspaceId: string;
  eventId: string;
  /** The type's own fields (webhook body fields beyond the base ones). */
  data?: Record<string, unknown>;
  occurredAt?: Date;
}

export interface RecordedDomainEvent {
  id: string;
  type: WebhookEventType;
  workspaceId: string;
  eventId: string;
  occurredAt: Date;
  data: Record<string, unknown>;
}

/** Runs inside the same transaction as the change; throwing rolls the change back. */
export type DomainEventSubscriber = (em: EntityManager, event: RecordedDomainEvent) => Promise<void>;

/**
 * The one internal event bus. `record` must be called with the transactional entity manager of the
 * change (inside `em.transactional`), so the outbox row and everything subscribers write commit or
 * roll back with it.
 */
export class DomainEventBus {
  private readonly subscribers: DomainEventSubscriber[] = [];

  subscribe(subscriber: DomainEventSubscriber): void {
    this.subscribers.push(subscriber);
  }

  async record(em: EntityManager, input: DomainEventInput): Promise<RecordedDomainEvent> {
    const event: RecordedDomainEvent = {
      id: randomUUID(),
      type: input.type,
      workspaceId: input.workspaceId,
      eventId: input.eventId,
      occurredAt: input.occurredAt ?? new Date(),
      data: input.data ?? {},
    };
    await em
      .getConnection()
      .execute(
        'insert into domain_event (id, type, workspace_id, event_id, payload, occurred_at) values (?, ?, ?, ?, ?, ?)',
        [event.id, event.type, event.workspaceId, event.eventId, JSON.stringify(event.data), event.occurredAt],
        'run',
        em.getTransactionContext(),
      );
    for (const subscriber of this.subscribers) await subscriber(em, event);
    return event;
  }
}
