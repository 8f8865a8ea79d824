import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, eventRoleSchema, idParams, isoTimestamp, meta, paginationQuery, uuid } from './common';

const c = initContract();

/*
 * What a live audience leaves behind: poll results, reaction totals and the chat log, readable during
 * and after the event, kept as long as the event (docs/audience-records.md).
 */

export const pollResultSchema = z.object({
  id: uuid,
  eventId: uuid,
  question: z.string(),
  options: z.array(z.string()),
  counts: z.array(z.number().int()).describe('Votes per option, in the order of `options`'),
  votes: z.number().int().describe('Votes in all (each participant votes once per poll)'),
  closed: z.boolean(),
  createdAt: isoTimestamp,
});
export type PollResult = z.infer<typeof pollResultSchema>;

export const reactionTotalSchema = z.object({
  emoji: z.string(),
  count: z.number().int().describe('Reactions with this emoji sent in the event'),
});

export const chatLogLineSchema = z.object({
  id: uuid,
  eventId: uuid,
  participantId: z.string(),
  authorName: z.string().nullable().describe('null for anonymous senders'),
  role: eventRoleSchema.describe('The sender’s role when the line was sent'),
  anonymous: z.boolean(),
  text: z.string(),
  sentAt: isoTimestamp,
});
export type ChatLogLine = z.infer<typeof chatLogLineSchema>;

const pageOf = (what: string, order: string) =>
  `The event’s ${what}, ${order}, up to \`limit\` (default and maximum 100) per page; pass \`nextCursor\` back as \`cursor\` for the next page. Another workspace’s event answers 404.`;

export const pollsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/events/:id/polls',
      pathParams: idParams,
      query: paginationQuery,
      responses: { 200: z.object({ polls: z.array(pollResultSchema), nextCursor: z.string().nullable() }) },
      metadata: meta({ access: 'member', scope: 'events:read', workspace: 'context' }),
      summary: 'Poll results of an event, oldest poll first',
      description: pageOf('live polls with their exact vote counts', 'oldest first'),
    },
  },
  { commonResponses: commonErrors },
);

export const reactionsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/events/:id/reactions',
      pathParams: idParams,
      query: paginationQuery,
      responses: {
        200: z.object({ reactions: z.array(reactionTotalSchema), nextCursor: z.string().nullable() }),
      },
      metadata: meta({ access: 'member', scope: 'events:read', workspace: 'context' }),
      summary: 'Reaction totals of an event per emoji, most sent first',
      description: pageOf('reaction totals per emoji', 'most sent first (ties by emoji)'),
    },
  },
  { commonResponses: commonErrors },
);

export const chatContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/events/:id/chat',
      pathParams: idParams,
      query: paginationQuery,
      responses: {
        200: z.object({ messages: z.array(chatLogLineSchema), nextCursor: z.string().nullable() }),
      },
      metadata: meta({ access: 'member', scope: 'events:read', workspace: 'context' }),
      summary: 'The chat log of an event, oldest line first',
      description: pageOf(
        'chat log: every line the live gateway accepted, whoever saw it (a large audience saw a sample)',
        'oldest first',
      ),
    },
  },
  { commonResponses: commonErrors },
);
