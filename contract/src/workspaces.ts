import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { apiScopeSchema, commonErrors, cursorPage, isoTimestamp, meta, noContent, paginationQuery, pagingRule, uuid, workspaceRoleSchema } from './common';

const c = initContract();

export const slugSchema = z
  .string()
  .min(3)
  .max(48)
  .regex(/^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9]))*$/, 'lowercase letters, digits and single hyphens, not at the ends');

export const workspaceSchema = z.object({
  id: uuid,
  name: z.string(),
  slug: z.string(),
  createdAt: isoTimestamp,
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const apiKeySchema = z.object({
  id: uuid,
  workspaceId: uuid,
  name: z.string().nullable(),
  status: z.enum(['active', 'revoked']),
  scopes: z.array(apiScopeSchema).describe('What the key may do; `*` is every scope'),
  eventId: uuid.nullable().describe('The one event the key is restricted to, or null'),
  createdAt: isoTimestamp,
  lastUsedAt: isoTimestamp.nullable(),
  revokedAt: isoTimestamp.nullable(),
});
export const apiKeyWithSecretSchema = apiKeySchema.extend({
  secret: z.string().describe('gck_ secret; shown once, only a hash is kept'),
});

export const memberSchema = z.object({
  id: uuid,
  accountId: uuid,
  name: z.string(),
  email: z.string().describe('The member account’s primary email'),
  role: workspaceRoleSchema,
  joinedAt: isoTimestamp,
});

export const participantIdentitySchema = z.object({
  id: uuid,
  workspaceId: uuid,
  accountId: uuid,
  name: z.string(),
  email: z.string().nullable(),
});

const workspacePath = { id: uuid };
const apiKeyName = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  scopes: z
    .array(apiScopeSchema)
    .min(1)
    .max(20)
    .optional()
    .describe('Default `["*"]` (every scope). A key creating a key can only grant scopes it holds itself'),
  eventId: uuid
    .optional()
    .describe('Restrict the key to one event of the workspace: it can then call only that event’s routes'),
});

export const workspacesContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/v1/workspaces',
      body: z.object({ name: z.string().trim().min(1).max(100), slug: slugSchema.optional() }),
      responses: { 201: workspaceSchema.extend({ apiKey: apiKeyWithSecretSchema }) },
      metadata: meta({ access: 'account', errors: ['slug_taken'] }),
      summary: 'Create a workspace with its first default API key',
      description:
        'Creates a workspace owned by the caller, with a first API key whose secret is in the answer and is never shown again: store it. The slug is derived from the name unless given; a slug in use answers 409 `slug_taken`.',
    },
    list: {
      method: 'GET',
      path: '/v1/workspaces',
      query: paginationQuery,
      responses: { 200: cursorPage('workspaces', workspaceSchema) },
      metadata: meta({ access: 'accountOrPlatform' }),
      summary: 'The caller’s workspaces, or every workspace with a valid x-platform-key',
      description:
        `The workspaces the signed-in account belongs to (with a valid \`x-platform-key\`, every workspace), oldest first. ${pagingRule}`,
    },
    update: {
      method: 'PATCH',
      path: '/v1/workspaces/:id',
      pathParams: z.object(workspacePath),
      body: z.object({ name: z.string().trim().min(1).max(100).optional(), slug: slugSchema.optional() }).strict(),
      responses: { 200: workspaceSchema },
      metadata: meta({ access: 'admin', scope: 'workspace:write', workspace: 'path', errors: ['slug_taken'] }),
      summary: 'Rename a workspace or change its slug',
      description:
        'Renames the workspace or changes its slug (409 `slug_taken` when another workspace has it).',
    },
    createSession: {
      method: 'POST',
      path: '/v1/workspaces/:id/session',
      pathParams: z.object(workspacePath),
      body: noContent,
      responses: {
        200: z.object({
          sessionToken: z.string().describe('gcw_ workspace session token (12 h)'),
          expiresAt: isoTimestamp,
          participant: participantIdentitySchema,
        }),
      },
      metadata: meta({ access: 'memberSession', workspace: 'path' }),
      summary: 'Bridge an account session into a workspace session token and participant identity',
      description:
        'Bridges the caller’s account session into a workspace session token (`gcw_`) and the participant identity used on the live gateway, for apps that act inside one workspace.',
    },
  },
  { commonResponses: commonErrors },
);

export const membersContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/workspaces/:id/members',
      pathParams: z.object(workspacePath),
      query: paginationQuery,
      responses: { 200: cursorPage('members', memberSchema) },
      metadata: meta({ access: 'member', scope: 'workspace:read', workspace: 'path' }),
      summary: 'List members with their role and primary email',
      description:
        `The workspace’s members with their role and primary email, oldest first. ${pagingRule}`,
    },
    leave: {
      method: 'DELETE',
      path: '/v1/workspaces/:id/members/me',
      pathParams: z.object(workspacePath),
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'memberSession', workspace: 'path', errors: ['conflict'] }),
      summary: 'Leave the workspace (blocked for its only owner)',
      description:
        'The caller leaves the workspace. The only owner cannot leave (409 `conflict`); another owner must exist first.',
    },
    update: {
      method: 'PATCH',
      path: '/v1/workspaces/:id/members/:memberId',
      pathParams: z.object({ ...workspacePath, memberId: uuid }),
      body: z.object({ role: z.enum(['member', 'admin']) }),
      responses: { 200: memberSchema },
      metadata: meta({ access: 'admin', scope: 'workspace:write', workspace: 'path' }),
      summary: 'Change a member’s role (owners are untouchable)',
      description:
        'Changes a member’s role between `member` and `admin`. Owners cannot be changed through this call (403).',
    },
    remove: {
      method: 'DELETE',
      path: '/v1/workspaces/:id/members/:memberId',
      pathParams: z.object({ ...workspacePath, memberId: uuid }),
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'admin', scope: 'workspace:write', workspace: 'path' }),
      summary: 'Remove a member (owners cannot be removed)',
      description:
        'Removes a member from the workspace; their sessions lose access at once. Owners cannot be removed (403).',
    },
  },
  { commonResponses: commonErrors },
);

export const apiKeysContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/v1/workspaces/:id/api-keys',
      pathParams: z.object(workspacePath),
      query: paginationQuery,
      responses: { 200: cursorPage('apiKeys', apiKeySchema) },
      metadata: meta({ access: 'admin', scope: 'workspace:read', workspace: 'path' }),
      summary: 'List API keys with revocation state (never secrets)',
      description:
        `The workspace’s API keys with their state (\`active\`, \`revoked\`) and last use, newest first. Secrets are never returned after creation. ${pagingRule}`,
    },
    create: {
      method: 'POST',
      path: '/v1/workspaces/:id/api-keys',
      pathParams: z.object(workspacePath),
      body: apiKeyName,
      responses: { 201: apiKeyWithSecretSchema },
      metadata: meta({ access: 'admin', scope: 'workspace:write', workspace: 'path' }),
      summary: 'Create an API key (secret shown once)',
      description:
        'Creates an API key. The `secret` (`gck_…`) is in this answer only: only its hash is kept. Send it as `x-api-key` from server-side code.',
    },
    delete: {
      method: 'DELETE',
      path: '/v1/workspaces/:id/api-keys/:keyId',
      pathParams: z.object({ ...workspacePath, keyId: uuid }),
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'admin', scope: 'workspace:write', workspace: 'path' }),
      summary: 'First call revokes the key; a second call deletes it',
      description:
        'The first call revokes the key (calls with it answer 401 from then on, on every server process); a second call deletes the revoked key from the list.',
    },
    createWithKey: {
      method: 'POST',
      path: '/v1/api-keys',
      body: apiKeyName,
      responses: { 201: apiKeyWithSecretSchema },
      metadata: meta({ access: 'apiKey', scope: 'workspace:write', workspace: 'context' }),
      summary: 'Create a new key for the calling key’s workspace',
      description:
        'Creates a new API key in the calling key’s workspace, for rotating keys without a person signing in. The secret is shown once.',
    },
  },
  { commonResponses: commonErrors },
);
