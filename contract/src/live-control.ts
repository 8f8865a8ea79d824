import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, meta, noContent, paginationQuery, uuid } from './common';

import {
  chatModeSchema,
  holderBody,
  joinLinkListItemSchema,
  joinLinkSchema,
  liveRoomParticipantSchema,
  liveRoomSettingsSchema,
  liveTokenSchema,
  participantIdSchema,
} from './live-control-schemas';

const c = initContract();

const eventParams = z.object({ id: uuid });
const participantParams = z.object({ id: uuid, participantId: participantIdSchema });
const reasonBody = z.object({ reason: z.string().trim().min(1).max(500).optional() }).strict();
const write = (scope: 'live:tokens' | 'events:write', errors: Parameters<typeof meta>[0]['errors'] = []) =>
  meta({ access: 'member', scope, workspace: 'context', errors: ['invalid_state', ...errors] });

export const liveTokensContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/events/:id/live-tokens',
      pathParams: eventParams,
      body: holderBody,
      responses: { 201: liveTokenSchema },
      metadata: write('live:tokens', ['role_not_on_event', 'forbidden']),
      summary: 'Mint a gateway token for one of your users (server side)',
      description:
        'With an API key (or a member’s session), mints a 5-minute gateway token for this event for a workspace user (`user.id`, or `user.externalSub`, upserted with `name`) or an ad-hoc identity. The token carries the user’s stored event role, or `role` when given (any role the event has; `workspace_admin` needs an admin or an API key), narrowed to the governing phase. A banned participant is refused (403 `forbidden`).',
    },
  },
  { commonResponses: commonErrors },
);

export const liveJoinLinksContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/events/:id/join-links',
      pathParams: eventParams,
      query: paginationQuery.extend({
        status: z
          .enum(['active', 'revoked'])
          .optional()
          .describe('`active`: links that still open; `revoked`: revoked ones; unset: both'),
      }),
      responses: {
        200: z.object({ joinLinks: z.array(joinLinkListItemSchema), nextCursor: z.string().nullable() }),
      },
      metadata: meta({ access: 'member', scope: 'live:tokens', workspace: 'context' }),
      summary: 'List the event’s join links',
      description:
        'The event’s join links, oldest first, up to `limit` (default and maximum 100) per page; pass `nextCursor` back as `cursor` (with the same `status`) for the next page. A link’s `joinUrl` is shown only when it is created: revoke a lost one and create another.',
    },
    create: {
      method: 'POST',
      path: '/v1/events/:id/join-links',
      pathParams: eventParams,
      body: holderBody,
      responses: { 201: joinLinkSchema },
      metadata: write('live:tokens', ['role_not_on_event', 'forbidden']),
      summary: 'A personal join link for one person',
      description:
        'A personal, revocable link (`joinUrl`) a frontend opens without credentials: each GET answers a fresh gateway token for this person and event, as `POST /v1/events/{id}/live-tokens` would. The URL is shown once.',
    },
    revoke: {
      method: 'DELETE',
      path: '/v1/events/:id/join-links/:linkId',
      pathParams: z.object({ id: uuid, linkId: uuid }),
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'member', scope: 'live:tokens', workspace: 'context' }),
      summary: 'Revoke a join link',
      description:
        'The link answers 404 from now on. Tokens it already gave run out within 5 minutes; remove the participant to end them now.',
    },
    open: {
      method: 'GET',
      path: '/v1/join/:code',
      pathParams: z.object({ code: z.string().min(1).max(200) }),
      responses: { 200: liveTokenSchema },
      metadata: meta({ access: 'public', errors: ['invalid_state', 'forbidden'] }),
      summary: 'Open a join link: a fresh gateway token',
      description:
        'No credentials: the code in the path is the credential. Answers a fresh 5-minute gateway token for the link’s person; a revoked or unknown link is 404, a banned participant 403, an ended event 409.',
    },
  },
  { commonResponses: commonErrors },
);

export const liveParticipantsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/events/:id/live/participants',
      pathParams: eventParams,
      query: paginationQuery,
      responses: {
        200: z.object({
          participants: z.array(liveRoomParticipantSchema),
          nextCursor: z.string().nullable(),
        }),
      },
      metadata: meta({ access: 'member', scope: 'events:read', workspace: 'context' }),
      summary: 'Who is in the live room now',
      description:
        'Everyone connected to the event’s live room, on every server process, in participantId order.',
    },
    remove: {
      method: 'POST',
      path: '/v1/events/:id/live/participants/:participantId/remove',
      pathParams: participantParams,
      body: reasonBody,
      responses: { 204: noContent },
      metadata: write('events:write'),
      summary: 'Remove a participant from the live room',
      description:
        'Closes every socket of the participant on every process (close code 4012, the reason in the close frame) and refuses the tokens issued before the removal: they may come back with a new token. Webhook `participant.removed`.',
    },
    ban: {
      method: 'POST',
      path: '/v1/events/:id/live/participants/:participantId/ban',
      pathParams: participantParams,
      body: z
        .object({
          reason: z.string().trim().min(1).max(500).optional(),
          clientAddress: z
            .boolean()
            .optional()
            .describe('Also refuse the client address the participant is connected from'),
        })
        .strict(),
      responses: { 204: noContent },
      metadata: write('events:write'),
      summary: 'Ban a participant for the rest of the event',
      description:
        'Closes their sockets everywhere (close code 4011) and refuses them for the rest of the event: new tokens, join links and reconnects. An anonymous viewer is banned by their token’s subject and, with `clientAddress`, the address they connected from. Webhook `participant.banned`.',
    },
    unban: {
      method: 'DELETE',
      path: '/v1/events/:id/live/participants/:participantId/ban',
      pathParams: participantParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context' }),
      summary: 'Lift a ban',
      description: 'The participant may join again with a new token.',
    },
    mute: {
      method: 'POST',
      path: '/v1/events/:id/live/participants/:participantId/mute',
      pathParams: participantParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: write('events:write'),
      summary: 'Mute a participant’s chat and questions',
      description:
        'Their `chat.send` and `question.create` are refused (`forbidden`) until unmuted, on every process.',
    },
    unmute: {
      method: 'DELETE',
      path: '/v1/events/:id/live/participants/:participantId/mute',
      pathParams: participantParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context' }),
      summary: 'Unmute a participant',
      description: 'Their chat and questions are accepted again.',
    },
  },
  { commonResponses: commonErrors },
);

export const liveRoomContract = c.router(
  {
    get: {
      method: 'GET',
      path: '/v1/events/:id/live/room',
      pathParams: eventParams,
      responses: { 200: liveRoomSettingsSchema },
      metadata: meta({ access: 'member', scope: 'events:read', workspace: 'context' }),
      summary: 'The live room’s chat settings',
      description:
        'The chat mode and slow mode in force: set for the event, else the governing phase’s config.',
    },
    update: {
      method: 'PATCH',
      path: '/v1/events/:id/live/room',
      pathParams: eventParams,
      body: z
        .object({
          chatMode: chatModeSchema.nullable().optional().describe('null: back to the phase config'),
          slowModeSeconds: z
            .number()
            .int()
            .min(0)
            .max(3600)
            .nullable()
            .optional()
            .describe('null: back to the phase config'),
        })
        .strict(),
      responses: { 200: liveRoomSettingsSchema },
      metadata: write('events:write'),
      summary: 'Lock chat or set slow mode',
      description:
        'Sets the chat mode and slow mode for the rest of the event, on every process within a second; every socket hears `room.settings`.',
    },
    deleteChatMessage: {
      method: 'DELETE',
      path: '/v1/events/:id/live/chat/:messageId',
      pathParams: z.object({ id: uuid, messageId: uuid }),
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context' }),
      summary: 'Delete a chat line for everyone',
      description:
        'Every socket hears `chat.deleted`; the line is never replayed to a resuming socket and is gone from the chat log.',
    },
    deleteQuestion: {
      method: 'DELETE',
      path: '/v1/events/:id/live/questions/:questionId',
      pathParams: z.object({ id: uuid, questionId: uuid }),
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context' }),
      summary: 'Delete a question for everyone',
      description:
        'Every socket hears `question.deleted`; the question is gone from `GET /v1/events/{id}/questions`.',
    },
  },
  { commonResponses: commonErrors },
);
