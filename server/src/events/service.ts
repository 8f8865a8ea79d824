import { randomUUID } from 'node:crypto';
import { type createEventBody, type Event, type EventWithPhases, eventListSorts, type updateEventBody } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { Queryable } from '../db/pool';
import { sql } from '../db/sql';
import type { Actor } from '../lib/actor';
import type { AppContext } from '../lib/context';
import { type JsonText, jsonPage } from '../lib/json-text';
import { invalidField, notFound, problem } from '../lib/problem';
import { bridgedUserFor } from '../people/users-service';
import { insertPhase } from '../phases/service';
import { cursorParts, decodeCursor, encodeCursor } from '../lib/cursor';
import { eventOfWorkspace, lockEvent, phasesOf } from './locks';
import { type EventRow, eventColumns, toEvent, withPhases } from './mapping';
import { type EventSort, eventListStatement } from './list-query';
import { queueEmailsToSeatHolders } from '../registrations/changes';
import { promoteWaitlist } from '../registrations/seats';

export type CreateEventInput = z.infer<typeof createEventBody>;
export type UpdateEventInput = z.infer<typeof updateEventBody>;

function checkSchedule(
  scheduledAt: string | Date | null | undefined,
  scheduledEndAt: string | Date | null | undefined,
) {
  if (scheduledAt && scheduledEndAt && new Date(scheduledEndAt) < new Date(scheduledAt)) {
    throw invalidField(
      'body.scheduledEndAt',
      'invalid_value',
      'Must not be before scheduledAt',
      'scheduledEndAt must not be before scheduledAt',
    );
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
     allow_anonymous_voting, allow_anonymous_questions, capacity, metadata, created_by_account_id, timezone)
   values (${Array.from({ length: 13 }, (_, i) => placeholder(i + 1)).join(', ')}) returning ${eventColumns}`;
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
  input.timezone ?? 'UTC',
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

export type EventPage = { events: Event[]; nextCursor: string | null };

export interface EventListInput {
  cursor?: string;
  limit?: number;
  sort?: EventSort;
  status?: string;
  visibility?: string;
  scheduledFrom?: string;
  scheduledTo?: string;
}

const statements = new Map<string, ReturnType<typeof eventListStatement>>();
const sortPart = new RegExp(`^(${eventListSorts.map((s) => s.replace('-', '\\-')).join('|')})$`);

/**
 * In `sort` order (newest first by default), filtered; the cursor is the last row's (sort key, id)
 * under its sort, so pages are stable under inserts. One prepared statement per filter combination
 * on the plain pool; PostgreSQL renders the page's JSON (db/json-rows.ts), answered as text.
 */
export async function listEvents(pool: Queryable, actor: Actor, input: EventListInput): Promise<JsonText<EventPage>> {
  const limit = input.limit ?? maxPageSize;
  const sort = input.sort ?? '-createdAt';
  const cursor =
    input.cursor === undefined
      ? undefined
      : decodeCursor(input.cursor, [sortPart, cursorParts.microsTimestamp, cursorParts.uuid]);
  if (cursor && cursor[0] !== sort) {
    throw problem('bad_request', 'Invalid request: query.cursor: the cursor belongs to another sort', {
      errors: [{ path: 'query.cursor', code: 'invalid_value', message: 'the cursor belongs to another sort' }],
    });
  }
  const spec = {
    sort,
    status: input.status !== undefined,
    visibility: input.visibility !== undefined,
    scheduledFrom: input.scheduledFrom !== undefined,
    scheduledTo: input.scheduledTo !== undefined,
    after: cursor !== undefined,
  };
  const name = `events_list_${Object.values(spec).map((v) => (v === true ? 1 : v === false ? 0 : v)).join('')}`;
  let query = statements.get(name);
  if (!query) {
    query = eventListStatement(spec);
    statements.set(name, query);
  }
  const values: unknown[] = [actor.workspaceId, limit];
  for (const v of [input.status, input.visibility, input.scheduledFrom, input.scheduledTo]) if (v !== undefined) values.push(v);
  if (cursor) values.push(cursor[1], cursor[2]);
  const { rows } = await pool.query({ name, text: query.text, values });
  const page = query.read(rows[0]!);
  return jsonPage<EventPage>('events', page.items, {
    nextCursor: page.next ? encodeCursor(sort, page.next.at!, page.next.id!) : null,
  });
}

export async function getEvent(em: EntityManager, actor: Actor, eventId: string): Promise<EventWithPhases> {
  const event = await eventOfWorkspace(em, actor, eventId);
  return withPhases(event, await phasesOf(em, eventId));
}

const updatable: Record<Exclude<keyof UpdateEventInput, 'metadata'>, keyof EventRow> = {
  title: 'title',
  scheduledAt: 'scheduled_at',
  scheduledEndAt: 'scheduled_end_at',
  timezone: 'timezone',
  visibility: 'visibility',
  allowAnonymousVoting: 'allow_anonymous_voting',
  allowAnonymousQuestions: 'allow_anonymous_questions',
  capacity: 'capacity',
};

const comparable = (v: unknown) =>
  v instanceof Date
    ? v.getTime()
    : typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /^\d{4}-/.test(v)
      ? Date.parse(v)
      : v;

/** The fields of `input` whose value differs from the stored row. */
function changedFields(current: EventRow, input: UpdateEventInput): string[] {
  const changed = (Object.entries(updatable) as [keyof typeof updatable, keyof EventRow][])
    .filter(
      ([field, column]) =>
        input[field] !== undefined && comparable(input[field]) !== comparable(current[column]),
    )
    .map(([field]) => field as string);
  if (input.metadata !== undefined && JSON.stringify(input.metadata) !== JSON.stringify(current.metadata))
    changed.push('metadata');
  return changed;
}

/**
 * Changes only the fields given; null clears scheduledAt, scheduledEndAt and capacity; metadata is
 * replaced. What really changed fires event.updated; a new schedule raises the calendar sequence and
 * emails registrants their updated invite; a larger capacity seats the waiting list.
 */
export async function updateEvent(
  ctx: Pick<AppContext, 'bus'>,
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: UpdateEventInput,
): Promise<Event> {
  return em.transactional(async (tx) => {
    const current = await lockEvent(tx, actor, eventId);
    checkSchedule(
      input.scheduledAt === undefined ? current.scheduled_at : input.scheduledAt,
      input.scheduledEndAt === undefined ? current.scheduled_end_at : input.scheduledEndAt,
    );
    const changed = changedFields(current, input);
    const rescheduled = changed.includes('scheduledAt') || changed.includes('scheduledEndAt');
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
    if (rescheduled) sets.push('calendar_sequence = calendar_sequence + 1');
    const rows = await sql<EventRow>(
      tx,
      `update event set ${[...sets, 'updated_at = now()'].join(', ')} where id = ? returning ${eventColumns}`,
      [...params, eventId],
    );
    if (changed.length) {
      await ctx.bus.record(tx, {
        type: 'event.updated',
        workspaceId: actor.workspaceId,
        eventId,
        data: { changedFields: changed },
      });
    }
    if (rescheduled && rows[0]!.status !== 'ended') await queueEmailsToSeatHolders(tx, 'updated', eventId);
    if (changed.includes('capacity')) await promoteWaitlist(ctx, tx, eventId);
    const [after] = await sql<EventRow>(tx, `select ${eventColumns} from event where id = ?`, [eventId]);
    return toEvent(after!);
  });
}

/**
 * Permanent: phases, Q&A, memberships, registrations, invites and event sessions go by foreign-key
 * cascade; event.deleted is recorded in the same transaction.
 */
export async function deleteEvent(
  ctx: Pick<AppContext, 'bus'>,
  em: EntityManager,
  actor: Actor,
  eventId: string,
): Promise<void> {
  await em.transactional(async (tx) => {
    const rows = await sql<{ id: string }>(
      tx,
      'delete from event where id = ? and workspace_id = ? returning id',
      [eventId, actor.workspaceId],
    );
    if (!rows[0]) throw notFound('Event');
    await ctx.bus.record(tx, { type: 'event.deleted', workspaceId: actor.workspaceId, eventId });
  });
}
