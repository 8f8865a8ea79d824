import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, cursorPage, isoTimestamp, meta, noContent, paginationQuery, pagingRule, uuid } from './common';

const c = initContract();

export const inviteKinds = ['workspace', 'event'] as const;
export const inviteStatuses = ['pending', 'accepted', 'revoked', 'expired'] as const;

export const inviteSchema = z.object({
  id: uuid,
  workspaceId: uuid,
  kind: z.enum(inviteKinds),
  email: z.string().nullable(),
  role: z.string(),
  eventId: uuid.nullable(),
  status: z.enum(inviteStatuses),
  expiresAt: isoTimestamp,
  createdAt: isoTimestamp,
  acceptedAt: isoTimestamp.nullable(),
});

export const invitesContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/workspaces/:id/invites',
      pathParams: z.object({ id: uuid }),
      body: z
        .object({
          email: z.string().trim().toLowerCase().email().max(320).optional(),
          role: z.string().min(1).max(40).optional().describe('workspace: member (default) or admin; event: an event role'),
          kind: z.enum(inviteKinds),
          eventId: uuid.optional().describe('Required for event invites'),
        })
        .strict(),
      responses: {
        201: inviteSchema.extend({
          url: z.string().optional().describe('The invite link, shown once: link invites (no email) and email dev mode'),
        }),
      },
      metadata: meta({ access: 'admin', scope: 'workspace:write', workspace: 'path', errors: ['role_not_on_event', 'rate_limited'] }),
      summary: 'Invite someone to the workspace or to an event',
      description:
        'Invites someone to the workspace (role `member` or `admin`) or to an event (an event role the event has a place for, else 400 `role_not_on_event`). With an email the invite is sent to it; without one the answer carries the link (`url`), shown once.'+
        ' Email invites are limited per client address and per invited address (docs/limits.md): 429 `rate_limited` with `Retry-After` past a limit.',
    },
    list: {
      method: 'GET',
      path: '/v1/workspaces/:id/invites',
      pathParams: z.object({ id: uuid }),
      query: paginationQuery,
      responses: { 200: cursorPage('invites', inviteSchema) },
      metadata: meta({ access: 'member', scope: 'workspace:read', workspace: 'path' }),
      summary: 'List the workspace’s invites',
      description:
        `The workspace’s invites with their state (\`pending\`, \`accepted\`, \`revoked\`, \`expired\`), newest first. ${pagingRule}`,
    },
    revoke: {
      method: 'DELETE',
      path: '/v1/workspaces/:id/invites/:inviteId',
      pathParams: z.object({ id: uuid, inviteId: uuid }),
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'admin', scope: 'workspace:write', workspace: 'path', errors: ['invalid_state'] }),
      summary: 'Revoke a pending invite',
      description:
        'Revokes a pending invite; its link stops working. An accepted invite cannot be revoked (409 `invalid_state`).',
    },
    preview: {
      method: 'GET',
      path: '/v1/invites/:token',
      pathParams: z.object({ token: z.string().min(1).max(200) }),
      responses: {
        200: z.object({
          kind: z.enum(inviteKinds),
          status: z.enum(inviteStatuses),
          role: z.string(),
          email: z.string().nullable(),
          workspace: z.object({ id: uuid, name: z.string() }),
          event: z.object({ id: uuid, title: z.string() }).nullable(),
          expiresAt: isoTimestamp,
        }),
      },
      metadata: meta({ access: 'public' }),
      summary: 'Preview an invite for the invite page',
      description:
        'What an invite link leads to (workspace or event, role, inviter), for the page that shows it before it is accepted. Unknown, expired or used tokens answer 404.',
    },
    accept: {
      method: 'POST',
      path: '/v1/invites/:token/accept',
      pathParams: z.object({ token: z.string().min(1).max(200) }),
      body: noContent,
      responses: {
        200: z.object({
          kind: z.enum(inviteKinds),
          workspaceId: uuid,
          eventId: uuid.nullable(),
          role: z.string(),
        }),
      },
      metadata: meta({ access: 'account', errors: ['invalid_token', 'forbidden'] }),
      summary: 'Accept an invite with the signed-in account',
      description:
        'Accepts an invite with the signed-in account: joins the workspace, or takes the role on the event. An invite sent to an email needs an account that owns that email (403 otherwise).',
    },
  },
  { commonResponses: commonErrors },
);
