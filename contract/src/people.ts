import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, cursorPage, eventRoleSchema, idParams, isoTimestamp, meta, noContent, paginationQuery, pagingRule, uuid } from './common';

const c = initContract();

export const userSchema = z.object({
  id: uuid,
  workspaceId: uuid,
  externalSub: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  picture: z.string().nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type User = z.infer<typeof userSchema>;

export const membershipSchema = z.object({
  id: uuid,
  eventId: uuid,
  userId: uuid,
  role: eventRoleSchema.describe('The stored role; narrowing to the active phase happens on the live plane'),
  createdAt: isoTimestamp,
});

export const questionSchema = z.object({
  id: uuid,
  eventId: uuid,
  text: z.string(),
  authorName: z.string().nullable(),
  anonymous: z.boolean(),
  status: z.enum(['open', 'answered', 'dismissed']),
  votes: z.number().int(),
  createdAt: isoTimestamp,
});

export const usersContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/users',
      query: paginationQuery,
      responses: { 200: cursorPage('users', userSchema) },
      metadata: meta({ access: 'member', scope: 'people:read', workspace: 'context' }),
      summary: 'List pre-provisioned users',
      description:
        `The workspace’s pre-provisioned users (participant identities your system manages, keyed by \`externalSub\`), oldest first. ${pagingRule}`,
    },
    upsert: {
      method: 'POST',
      path: '/v1/users',
      body: z.object({
        externalSub: z.string().trim().min(1).max(255),
        email: z.string().trim().toLowerCase().email().max(320).nullable().optional(),
        name: z.string().trim().min(1).max(200).nullable().optional(),
        picture: z.string().url().max(2000).nullable().optional(),
      }),
      responses: { 200: userSchema, 201: userSchema },
      metadata: meta({ access: 'member', scope: 'people:write', workspace: 'context' }),
      summary: 'Create (201) or update (200) a user by externalSub',
      description:
        'Creates a user (201) or updates the one with the same `externalSub` (200): the identity your system gives a person, so their event roles follow them.',
    },
  },
  { commonResponses: commonErrors },
);

const membershipPath = z.object({ id: uuid, membershipId: uuid });

export const membershipsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/events/:id/memberships',
      pathParams: idParams,
      body: z.object({ userId: uuid, role: eventRoleSchema }),
      responses: { 201: membershipSchema },
      metadata: meta({ access: 'member', scope: 'people:write', workspace: 'context', errors: ['role_not_on_event'] }),
      summary: 'Give a user a role on the event',
      description:
        'Gives a user a role on the event. A user holds one role per event: giving another replaces it. A role the event’s phases have no place for answers 400 `role_not_on_event`.',
    },
    list: {
      method: 'GET',
      path: '/v1/events/:id/memberships',
      pathParams: idParams,
      query: paginationQuery,
      responses: { 200: cursorPage('memberships', membershipSchema) },
      metadata: meta({ access: 'member', scope: 'people:read', workspace: 'context' }),
      summary: 'List the event’s memberships',
      description:
        `The event’s memberships (which user holds which role), oldest first. ${pagingRule}`,
    },
    get: {
      method: 'GET',
      path: '/v1/events/:id/memberships/:membershipId',
      pathParams: membershipPath,
      responses: { 200: membershipSchema },
      metadata: meta({ access: 'member', scope: 'people:read', workspace: 'context' }),
      summary: 'Read one membership',
      description:
        'One membership of the event: the user and the role they hold.',
    },
    delete: {
      method: 'DELETE',
      path: '/v1/events/:id/memberships/:membershipId',
      pathParams: membershipPath,
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'member', scope: 'people:write', workspace: 'context' }),
      summary: 'Remove a membership',
      description:
        'Removes a user’s role on the event; gateway tokens minted afterwards no longer carry it, those minted before no longer open a live socket, and the user’s open live sockets close (4010).',
    },
  },
  { commonResponses: commonErrors },
);

export const questionsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/events/:id/questions',
      pathParams: idParams,
      query: paginationQuery,
      responses: { 200: cursorPage('questions', questionSchema) },
      metadata: meta({ access: 'member', scope: 'people:read', workspace: 'context' }),
      summary: 'Q&A questions with vote tallies, oldest first',
      description: `The event’s Q&A questions with their vote tallies, oldest first: an order that votes arriving while you page cannot reshuffle (sort by \`votes\` on your side). ${pagingRule}`,
    },
  },
  { commonResponses: commonErrors },
);
