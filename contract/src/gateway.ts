import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, cursorPage, eventRoleSchema, idParams, isoTimestamp, meta, noContent, paginationQuery, pagingRule, uuid } from './common';

const c = initContract();

export const guestIntegrationSchema = z.object({
  id: uuid,
  workspaceId: uuid,
  issuer: z.string(),
  jwksUrl: z.string().nullable(),
  publicKeyPem: z.string().nullable(),
  createdAt: isoTimestamp,
});

export const gatewayContract = c.router(
  {
    token: {
      method: 'POST',
      path: '/v1/auth/gateway-token',
      body: z.object({ eventId: uuid }),
      responses: {
        200: z.object({
          token: z.string().describe('Opens GET /v1/live?token=…; valid 5 minutes'),
          expiresAt: isoTimestamp,
          url: z.string().describe('The live gateway WebSocket URL with the token'),
          role: eventRoleSchema.describe('The caller’s event role, narrowed to one the event has'),
          anonymous: z.boolean(),
        }),
      },
      metadata: meta({
        access: 'public',
        errors: ['not_found', 'invalid_state', 'sign_in_required', 'forbidden'],
      }),
      summary: 'A short-lived live-gateway token (Bearer session optional)',
      description:
        'Mints a live-gateway token for one event, valid 5 minutes: open `GET /v1/live?token=…` with it (the answer’s `url`). With a Bearer session the token carries the caller’s event role; without one the caller joins anonymously as a viewer, which only broadcasts allow (calls answer 401 `sign_in_required`). Ended events and events without phases answer 409 `invalid_state`. An API key alone is refused (403 `forbidden`): a backend mints tokens for its users with `POST /v1/events/{id}/live-tokens`.',
    },
    guestSession: {
      method: 'POST',
      path: '/v1/events/:id/guest-session',
      pathParams: idParams,
      body: z.object({ token: z.string().min(1).max(16_384) }).strict(),
      responses: {
        200: z.object({
          sessionToken: z.string().describe('gcg_ guest session token'),
          expiresAt: isoTimestamp,
          eventId: uuid,
          guest: z.object({ sub: z.string(), name: z.string().nullable(), email: z.string().nullable() }),
        }),
      },
      metadata: meta({ access: 'public', errors: ['invalid_token', 'account_exists', 'invalid_state', 'service_unavailable'] }),
      summary: 'Exchange a partner JWT for an ephemeral guest session',
      description:
        'Exchanges a JWT signed by a registered partner (a guest integration of the event’s workspace) for a short-lived guest session token (`gcg_`) on this event. The JWT is checked against the partner’s key set (issuer, audience, expiry). An email that belongs to an account answers 409 `account_exists`: that person signs in instead.',
    },
  },
  { commonResponses: commonErrors },
);

export const guestIntegrationsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/workspaces/:id/guest-integrations',
      pathParams: idParams,
      body: z
        .object({
          issuer: z.string().min(1).max(500),
          jwksUrl: z.string().url().max(2000).optional(),
          publicKeyPem: z.string().min(1).max(10_000).optional(),
        })
        .refine((b) => (b.jwksUrl === undefined) !== (b.publicKeyPem === undefined), {
          message: 'exactly one of jwksUrl or publicKeyPem is required',
          path: ['jwksUrl'],
        }),
      responses: { 201: guestIntegrationSchema },
      metadata: meta({ access: 'admin', scope: 'workspace:write', workspace: 'path' }),
      summary: 'Register a partner allowed to issue guest JWTs',
      description:
        'Registers a partner that may issue guest JWTs for this workspace’s events: its issuer, audience and JWKS URL.',
    },
    list: {
      method: 'GET',
      path: '/v1/workspaces/:id/guest-integrations',
      pathParams: idParams,
      query: paginationQuery,
      responses: { 200: cursorPage('integrations', guestIntegrationSchema) },
      metadata: meta({ access: 'member', scope: 'workspace:read', workspace: 'path' }),
      summary: 'List active guest integrations',
      description:
        `The workspace’s active guest integrations (revoked ones are left out), oldest first. ${pagingRule}`,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/workspaces/:id/guest-integrations/:integrationId',
      pathParams: z.object({ id: uuid, integrationId: uuid }),
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'admin', scope: 'workspace:write', workspace: 'path' }),
      summary: 'Revoke a guest integration',
      description:
        'Revokes a guest integration: its JWTs are refused from now on. Guest sessions already issued run out on their own.',
    },
  },
  { commonResponses: commonErrors },
);
