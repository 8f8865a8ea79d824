import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@gathercast/contract';
import { type SqlTx, sql } from '../db/sql';

/** A fact about a workspace, recorded in the transaction of the change that caused it. */
export interface DomainEventInput {
  /** Given when the caller must know the id before the row commits (otherwise a fresh one). */
  id?: string;
  type: WebhookEventType;
  workspaceId: string;
  eventId: string;
  /** The type's own fields (webhook body fields beyond the base ones). */
  data?: Record<string, unknown>;
  occurredAt?: Date;
}

export interface RecordedDomainEvent {
  id: string;
  /** Its number in the workspace's sequence (1, 2, 3, … with no gaps); 0 for test sends, which are not in it. */
  sequence: number;
  type: WebhookEventType;
  workspaceId: string;
  eventId: string;
  occurredAt: Date;
  data: Record<string, unknown>;
}

/** Runs inside the same transaction as the change; throwing rolls the change back. */
export type DomainEventSubscriber = (tx: SqlTx, event: RecordedDomainEvent) => Promise<void>;
/** The same for several events recorded together (one statement for all of them, where it can). */
export type DomainEventsSubscriber = (tx: SqlTx, events: RecordedDomainEvent[]) => Promise<void>;

/**
 * The one internal event bus. `record` must be called with the transaction of the change (the
 * entity manager inside `em.transactional`, or a pg client inside `withTransaction`), so the outbox
 * row and everything subscribers write commit or roll back with it.
 */
export class DomainEventBus {
  private readonly subscribers: { one: DomainEventSubscriber; many?: DomainEventsSubscriber }[] = [];

  /** `many`, when given, takes the events of a `recordMany` at once; without it `one` takes each. */
  subscribe(subscriber: DomainEventSubscriber, many?: DomainEventsSubscriber): void {
    this.subscribers.push({ one: subscriber, many });
  }

  async record(tx: SqlTx, input: DomainEventInput): Promise<RecordedDomainEvent> {
    const [event] = await this.recordMany(tx, [input]);
    return event!;
  }

  /**
   * Several facts in one transaction with one insert (a join storm records thousands of
   * participant.joined a second: one statement per group, not per fact).
   */
  async recordMany(tx: SqlTx, inputs: DomainEventInput[]): Promise<RecordedDomainEvent[]> {
    if (!inputs.length) return [];
    const events: RecordedDomainEvent[] = inputs.map((input) => ({
      id: input.id ?? randomUUID(),
      sequence: 0,
      type: input.type,
      workspaceId: input.workspaceId,
      eventId: input.eventId,
      occurredAt: input.occurredAt ?? new Date(),
      data: input.data ?? {},
    }));
    // One statement: take the next numbers of each workspace's sequence (its row stays locked until
    // the transaction ends, so numbers are visible in commit order; workspaces locked in id order,
    // so two transactions never wait on each other crosswise), then insert the events with them.
    const numbered = await sql<{ id: string; seq: string }>(
      tx,
      `with x as (
         select * from jsonb_to_recordset(?::jsonb)
           as x(id uuid, type text, workspace_id uuid, event_id uuid, payload jsonb, occurred_at timestamptz, ord int)
       ),
       n as (select workspace_id, count(*)::bigint as c from x group by workspace_id),
       s as (
         insert into workspace_event_seq as w (workspace_id, last_seq)
         select workspace_id, c from n order by workspace_id
         on conflict (workspace_id) do update set last_seq = w.last_seq + excluded.last_seq
         returning workspace_id, last_seq
       )
       insert into domain_event (id, type, workspace_id, event_id, payload, occurred_at, seq)
       select x.id, x.type, x.workspace_id, x.event_id, x.payload, x.occurred_at,
              s.last_seq - n.c + row_number() over (partition by x.workspace_id order by x.ord)
         from x join n using (workspace_id) join s using (workspace_id)
       returning id, seq`,
      [
        JSON.stringify(
          events.map((e, ord) => ({
            id: e.id,
            type: e.type,
            workspace_id: e.workspaceId,
            event_id: e.eventId,
            payload: e.data,
            occurred_at: e.occurredAt.toISOString(),
            ord,
          })),
        ),
      ],
    );
    const sequenceOf = new Map(numbered.map((r) => [r.id, Number(r.seq)]));
    for (const e of events) e.sequence = sequenceOf.get(e.id)!;
    for (const { one, many } of this.subscribers) {
      if (many) await many(tx, events);
      else for (const event of events) await one(tx, event);
    }
    return events;
  }
}
