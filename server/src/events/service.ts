import { randomUUID } from 'node:crypto';
import type { createEventBody, Event, EventWithPhases, updateEventBody } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { Queryable } from '../db/pool';
import { notFound, problem } from '../lib/problem';
import type { Actor } from '../lib/actor';
import { bridgedUserFor } from '../people/users-service';
import { insertPhase } from '../phases/service';
import { decodeCursor, encodeCursor } from './cursor';
import { findEvent, phasesOf } from './locks';
import { type EventRow, eventColumns, toEvent, withPhases } from './mapping';
import { eventListQuery } from './list-query';
import { sql } from '../db/sql';
import { type JsonText, jsonPage } from '../lib/json-text';

export type CreateEventInput = z.infer<typeof createEventBody>;
export type UpdateEventInput = z.infer<typeof updateEventBody>;

function checkSchedule(
  scheduledAt: string | Date | null | undefined,
  scheduledEndAt: string | Date | null | undefined,
) {
  if (scheduledAt && scheduledEndAt && new Date(scheduledEndAt) < new Date(scheduledAt)) {
    throw problem('bad_request', 'scheduledEndAt must not be before scheduledAt', {
      errors: [{ path: 'body.scheduledEndAt', message: 'Must not be before scheduledAt' }],
    });
  }
}

/** The creator's bridged participant identity becomes a host of the event (account sessions only). */
async function makeCreatorHost(tx: EntityManager, workspaceId: string, accountId: string, eventId: string) {
  const rows = await sql<{ name: string; email: string | null }>(
    tx,
    `select a.name, e.email from account a
       left join account_email e on e.account_id = a.id and e."primary"
      where a.id = ?`,
    [accountId],
  );
  if (!rows[0]) return;
  const user = await bridgedUserFor(tx, workspaceId, {
    id: accountId,
    name: rows[0].name,
    email: rows[0].email,
  });
  await sql(tx, `insert into event_membership (id, event_id, user_id, role) values (?, ?, ?, 'host')`, [
    randomUUID(),
    eventId,
    user.id,
  ]);
}

const insertEventSql = (placeholder: (n: number) => string) =>
  `insert into event (id, workspace_id, type, title, scheduled_at, scheduled_end_at, visibility,
     allow_anonymous_voting, allow_anonymous_questions, capacity, metadata, created_by_account_id)
   values (${Array.from({ length: 12 }, (_, i) => placeholder(i + 1)).join(', ')}) returning ${eventColumns}`;
const insertEventKnex = insertEventSql(() => '?');
const insertEventPg = insertEventSql((n) => `$${n}`);

const insertEventValues = (actor: Actor, input: CreateEventInput) => [
  randomUUID(),
  actor.workspaceId,
  input.type,
  input.title,
  input.scheduledAt ?? null,
  input.scheduledEndAt ?? null,
  input.visibility ?? 'unlisted',
  input.allowAnonymousVoting ?? false,
  input.allowAnonymousQuestions ?? false,
  input.capacity ?? null,
  JSON.stringify(input.metadata ?? {}),
  actor.accountId ?? null,
];

/** Hands out the caller's entity manager only when read (a request forks its own on first use). */
export interface EntityManagerOnDemand {
  readonly em: EntityManager;
}

/**
 * Creates a draft event, with its phases when given; answers the bare event. A bare event from an
 * API key is one statement (atomic on its own), sent as a prepared statement on the plain pool when
 * one is given, without an entity manager; phases and the creator's membership share a transaction.
 */
export async function createEvent(
  orm: EntityManagerOnDemand,
  actor: Actor,
  input: CreateEventInput,
  pool?: Queryable,
): Promise<Event> {
  checkSchedule(input.scheduledAt, input.scheduledEndAt);
  if (!input.phases?.length && !actor.accountId) {
    if (pool) {
      const { rows } = await pool.query<EventRow>({
        name: 'events_insert',
        text: insertEventPg,
        values: insertEventValues(actor, input),
      });
      return toEvent(rows[0]!);
    }
    return toEvent((await sql<EventRow>(orm.em, insertEventKnex, insertEventValues(actor, input)))[0]!);
  }
  return orm.em.transactional(async (tx) => {
    const [event] = await sql<EventRow>(tx, insertEventKnex, insertEventValues(actor, input));
    for (const [position, phase] of (input.phases ?? []).entries())
      await insertPhase(tx, event!.id, position, phase);
    if (actor.accountId) await makeCreatorHost(tx, actor.workspaceId, actor.accountId, event!.id);
    return toEvent(event!);
  });
}

export const maxPageSize = 100;

const listFirstPage = eventListQuery(false);
const listNextPage = eventListQuery(true);

export type EventPage = { events: Event[]; nextCursor: string | null };

/**
 * Newest first; the cursor is the last row's (createdAt, id), so pages are stable under inserts.
 * One prepared statement on the plain pool; PostgreSQL renders the page's JSON (db/json-rows.ts),
 * which is answered as text, without objects in between.
 */
export async function listEvents(
  pool: Queryable,
  actor: Actor,
  input: { cursor?: string; limit?: number },
): Promise<JsonText<EventPage>> {
  const limit = input.limit ?? maxPageSize;
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  const query = after ? listNextPage : listFirstPage;
  const { rows } = await pool.query(
    after
      ? { name: 'events_list_next', text: query.text, values: [actor.workspaceId, limit, after.at, after.id] }
      : { name: 'events_list_first', text: query.text, values: [actor.workspaceId, limit] },
  );
  const page = query.read(rows[0]!);
  return jsonPage<EventPage>('events', page.items, {
    nextCursor: page.next ? encodeCursor(page.next.at!, page.next.id!) : null,
  });
}

export async function getEvent(em: EntityManager, actor: Actor, eventId: string): Promise<EventWithPhases> {
  const event = await findEvent(em, actor, eventId);
  return withPhases(event, await phasesOf(em, eventId));
}

const updatable: Record<Exclude<keyof UpdateEventInput, 'metadata'>, string> = {
  title: 'title',
  scheduledAt: 'scheduled_at',
  scheduledEndAt: 'scheduled_end_at',
  visibility: 'visibility',
  allowAnonymousVoting: 'allow_anonymous_voting',
  allowAnonymousQuestions: 'allow_anonymous_questions',
  capacity: 'capacity',
};

/** Changes only the fields given; null clears scheduledAt, scheduledEndAt and capacity; metadata is replaced. */
export async function updateEvent(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: UpdateEventInput,
): Promise<Event> {
  return em.transactional(async (tx) => {
    const current = await sql<EventRow>(
      tx,
      `select ${eventColumns} from event where id = ? and workspace_id = ? for update`,
      [eventId, actor.workspaceId],
    );
    if (!current[0]) throw notFound('Event');
    checkSchedule(
      input.scheduledAt === undefined ? current[0].scheduled_at : input.scheduledAt,
      input.scheduledEndAt === undefined ? current[0].scheduled_end_at : input.scheduledEndAt,
    );
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [field, column] of Object.entries(updatable) as [keyof typeof updatable, string][]) {
      if (input[field] === undefined) continue;
      sets.push(`${column} = ?`);
      params.push(input[field]);
    }
    if (input.metadata !== undefined) {
      sets.push('metadata = ?');
      params.push(JSON.stringify(input.metadata));
    }
    const rows = await sql<EventRow>(
      tx,
      `update event set ${[...sets, 'updated_at = now()'].join(', ')} where id = ? returning ${eventColumns}`,
      [...params, eventId],
    );
    return toEvent(rows[0]!);
  });
}

/** Permanent: phases, Q&A, memberships, registrations, invites and event sessions go by foreign-key cascade. */
export async function deleteEvent(em: EntityManager, actor: Actor, eventId: string): Promise<void> {
  const rows = await sql<{ id: string }>(em, 'delete from event where id = ? and workspace_id = ? returning id', [
    eventId,
    actor.workspaceId,
  ]);
  if (!rows[0]) throw notFound('Event');
}
