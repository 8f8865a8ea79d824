import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  commonErrors,
  idParams,
  isoTimestamp,
  meta,
  metadataSchema,
  noContent,
  paginationQuery,
  timestamp,
  uuid,
} from './common';
import { phaseInputSchema, phaseSchema } from './phases';

const c = initContract();

export const eventStatuses = ['draft', 'scheduled', 'live', 'ended'] as const;
export const visibilities = ['public', 'unlisted', 'private'] as const;

export const eventSchema = z.object({
  id: uuid,
  workspaceId: uuid,
  type: z.string(),
  title: z.string(),
  status: z.enum(eventStatuses),
  scheduledAt: isoTimestamp.nullable(),
  scheduledEndAt: isoTimestamp.nullable(),
  timezone: z
    .string()
    .describe('IANA time zone (e.g. `Europe/Paris`) the event is presented in: emails and invites'),
  visibility: z.enum(visibilities),
  allowAnonymousVoting: z.boolean(),
  allowAnonymousQuestions: z.boolean(),
  capacity: z.number().int().nullable().describe('Registration capacity; null is unlimited'),
  metadata: metadataSchema,
  activePhaseId: uuid.nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  publishedAt: isoTimestamp.nullable(),
  startedAt: isoTimestamp.nullable(),
  endedAt: isoTimestamp.nullable(),
  canceledAt: isoTimestamp
    .nullable()
    .describe('Set when a scheduled event was canceled (ended before it started)'),
});
export type Event = z.infer<typeof eventSchema>;

export const eventWithPhasesSchema = eventSchema.extend({ phases: z.array(phaseSchema) });
export type EventWithPhases = z.infer<typeof eventWithPhasesSchema>;

const title = z.string().trim().min(1).max(200);
const capacity = z.number().int().min(1).max(1_000_000).nullable();

/** Whether the runtime knows the IANA zone (`Intl` resolves it, aliases like `UTC` included). */
function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const timezoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine(knownTimeZone, 'Must be an IANA time zone such as Europe/Paris or UTC');

export const createEventBody = z.object({
  type: z.string().trim().min(1).max(100),
  title,
  scheduledAt: timestamp.nullable().optional(),
  scheduledEndAt: timestamp.nullable().optional(),
  timezone: timezoneSchema.optional().describe('Default UTC'),
  visibility: z.enum(visibilities).optional(),
  allowAnonymousVoting: z.boolean().optional(),
  allowAnonymousQuestions: z.boolean().optional(),
  capacity: capacity.optional(),
  metadata: metadataSchema.optional(),
  phases: z.array(phaseInputSchema).max(20).optional(),
});

export const updateEventBody = z.object({
  title: title.optional(),
  scheduledAt: timestamp.nullable().optional().describe('null clears it'),
  scheduledEndAt: timestamp.nullable().optional(),
  timezone: timezoneSchema.optional(),
  visibility: z.enum(visibilities).optional(),
  allowAnonymousVoting: z.boolean().optional(),
  allowAnonymousQuestions: z.boolean().optional(),
  capacity: capacity.optional(),
  metadata: metadataSchema.optional().describe('Replaced wholesale'),
});

export const eventListSorts = ['-createdAt', 'createdAt', 'scheduledAt', '-scheduledAt'] as const;
const eventListQuery = paginationQuery.extend({
  status: z.enum(eventStatuses).optional(),
  visibility: z.enum(visibilities).optional(),
  scheduledFrom: timestamp.optional().describe('Only events scheduled at or after this instant'),
  scheduledTo: timestamp.optional().describe('Only events scheduled before this instant'),
  sort: z.enum(eventListSorts).optional().describe('Default `-createdAt` (newest first)'),
});

const lifecycle = (summary: string, description: string) =>
  ({
    method: 'POST',
    path: '',
    pathParams: idParams,
    body: noContent,
    responses: { 200: eventWithPhasesSchema },
    metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context', errors: ['invalid_state'] }),
    summary,
    description,
  }) as const;

export const eventsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/events',
      body: createEventBody,
      responses: { 201: eventSchema },
      metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context' }),
      summary: 'Create an event in draft (with optional phases)',
      description:
        'Creates an event in `draft` in the caller’s workspace, optionally with its agenda of phases. Drafts are invisible to the public; publish one to schedule it.',
    },
    list: {
      method: 'GET',
      path: '/v1/events',
      query: eventListQuery,
      responses: { 200: z.object({ events: z.array(eventSchema), nextCursor: z.string().nullable() }) },
      metadata: meta({ access: 'member', scope: 'events:read', workspace: 'context' }),
      summary: 'List events, newest first, filtered and sorted',
      description:
        'The workspace’s events, newest first unless `sort` says otherwise, up to `limit` (default and maximum 100) per page; pass `nextCursor` back as `cursor` (with the same filters and sort) for the next page. Filter by `status`, `visibility` and a `scheduledAt` range (`scheduledFrom` inclusive, `scheduledTo` exclusive); sort by `createdAt` or `scheduledAt` (`-` for descending; unscheduled events come after scheduled ones in ascending order).',
    },
    get: {
      method: 'GET',
      path: '/v1/events/:id',
      pathParams: idParams,
      responses: { 200: eventWithPhasesSchema },
      metadata: meta({ access: 'member', scope: 'events:read', workspace: 'context' }),
      summary: 'Read an event with its phases in order',
      description:
        'One event of the caller’s workspace with its phases in agenda order; another workspace’s event answers 404.',
    },
    update: {
      method: 'PATCH',
      path: '/v1/events/:id',
      pathParams: idParams,
      body: updateEventBody,
      responses: { 200: eventSchema },
      metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context' }),
      summary: 'Update an event',
      description:
        'Changes an event’s settings; `metadata` is replaced whole and `null` clears a schedule time. A change fires `event.updated` with the changed fields; moving `scheduledAt` or `scheduledEndAt` emails every registrant an updated calendar invite (its `SEQUENCE` raised), and raising `capacity` promotes from the waiting list.',
    },
    delete: {
      method: 'DELETE',
      path: '/v1/events/:id',
      pathParams: idParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context' }),
      summary: 'Delete an event with its phases, Q&A, invites, memberships and registrations',
      description:
        'Deletes an event with its phases, Q&A, invites, memberships and registrations, and fires `event.deleted`. Registrants are not emailed: cancel the event first (`POST /v1/events/{id}/end`) to send them a cancellation.',
    },
    publish: {
      ...lifecycle(
        'Publish a draft (draft → scheduled)',
        'Publishes a draft: it becomes `scheduled`, visible on public surfaces (unless private) and open for registration, and `event.published` fires. Only drafts can be published (409 `invalid_state`).',
      ),
      path: '/v1/events/:id/publish',
    },
    start: {
      ...lifecycle(
        'Go live (scheduled → live); activates the first phase',
        'Takes a scheduled event live: its first phase becomes active and `event.started` fires. Only scheduled events can start (409 `invalid_state`): publish a draft first; an ended event never starts again.',
      ),
      path: '/v1/events/:id/start',
    },
    advance: {
      ...lifecycle(
        'End the active phase and start the next; the last advance ends the event',
        'Ends the active phase and activates the next one; advancing past the last phase ends the event (`event.ended`). Only live events advance (409 `invalid_state`). Send `phaseId` to advance only if that phase is still the active one, so two hosts clicking at once move the agenda one step.',
      ),
      path: '/v1/events/:id/advance',
      body: z
        .object({
          phaseId: uuid.optional().describe('Guard: advance only while this phase is still active'),
        })
        .optional(),
    },
    end: {
      ...lifecycle(
        'End the event (from live, or cancel a scheduled one)',
        'Ends a live event (its active phase ends) and fires `event.ended`; or cancels a scheduled one: `canceledAt` is set, `event.canceled` fires (not `event.ended`) and every registrant is emailed a calendar cancellation. Drafts and ended events answer 409 `invalid_state`.',
      ),
      path: '/v1/events/:id/end',
    },
  },
  { commonResponses: commonErrors },
);
