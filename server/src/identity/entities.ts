import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { sessionKinds } from '../lib/secrets';

/**
 * The identity core that authentication reads on every request. Foreign keys are scalar ids; the
 * constraints live in the migrations.
 */
export const Account = defineEntity({
  name: 'Account',
  tableName: 'account',
  properties: (p) => ({
    id: p.uuid().primary(),
    name: p.text(),
    passwordHash: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type Account = InferEntity<typeof Account>;

export const AccountEmail = defineEntity({
  name: 'AccountEmail',
  tableName: 'account_email',
  indexes: [
    { name: 'account_email_account_idx', properties: ['accountId'] },
    {
      name: 'account_email_one_primary',
      expression:
        'CREATE UNIQUE INDEX account_email_one_primary ON public.account_email USING btree (account_id) WHERE "primary"',
    },
  ],
  uniques: [{ name: 'account_email_email_key', properties: ['email'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    accountId: p.uuid(),
    /** Lower-cased; unique across accounts. */
    email: p.text(),
    primary: p.boolean().defaultRaw('false'),
    verifiedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type AccountEmail = InferEntity<typeof AccountEmail>;

/** Every bearer-style session (gcs_, gcw_, gcg_, gce_): only the SHA-256 of the token is kept. */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'session',
  indexes: [
    { name: 'session_account_idx', properties: ['accountId'] },
    {
      name: 'session_event_idx',
      expression:
        'CREATE INDEX session_event_idx ON public.session USING btree (event_id) WHERE (event_id IS NOT NULL)',
    },
  ],
  uniques: [{ name: 'session_token_hash_key', properties: ['tokenHash'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    kind: p.enum([...sessionKinds]),
    tokenHash: p.text(),
    accountId: p.uuid().nullable(),
    workspaceId: p.uuid().nullable(),
    eventId: p.uuid().nullable(),
    /** Participant identity (workspace sessions), registration (entry sessions) or guest subject. */
    subjectId: p.text().nullable(),
    data: p.json<Record<string, unknown>>().defaultRaw("'{}'"),
    expiresAt: p.datetime(),
    lastUsedAt: p.datetime().defaultRaw('now()'),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type Session = InferEntity<typeof Session>;

export const Workspace = defineEntity({
  name: 'Workspace',
  tableName: 'workspace',
  uniques: [{ name: 'workspace_slug_key', properties: ['slug'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    name: p.text(),
    slug: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type Workspace = InferEntity<typeof Workspace>;

export const WorkspaceMember = defineEntity({
  name: 'WorkspaceMember',
  tableName: 'workspace_member',
  indexes: [{ name: 'workspace_member_account_idx', properties: ['accountId'] }],
  uniques: [
    { name: 'workspace_member_workspace_id_account_id_key', properties: ['workspaceId', 'accountId'] },
  ],
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    accountId: p.uuid(),
    role: p.enum(['owner', 'admin', 'member'] as const),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type WorkspaceMember = InferEntity<typeof WorkspaceMember>;

export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  indexes: [{ name: 'api_key_workspace_idx', properties: ['workspaceId'] }],
  uniques: [{ name: 'api_key_secret_hash_key', properties: ['secretHash'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    name: p.text().nullable(),
    secretHash: p.text(),
    /** The scopes the key holds; `*` is everything. */
    scopes: p.array().defaultRaw("'{*}'"),
    /** The one event the key is restricted to, if any. */
    eventId: p.uuid().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  }),
});
export type ApiKey = InferEntity<typeof ApiKey>;

/** A single-use email verification or password reset token; only the SHA-256 is kept. */
export const AccountToken = defineEntity({
  name: 'AccountToken',
  tableName: 'account_token',
  indexes: [{ name: 'account_token_account_idx', properties: ['accountId'] }],
  uniques: [{ name: 'account_token_token_hash_key', properties: ['tokenHash'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    kind: p.enum(['verify', 'reset'] as const),
    tokenHash: p.text(),
    accountId: p.uuid(),
    email: p.text(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type AccountToken = InferEntity<typeof AccountToken>;

/** One identity-provider login in flight: its state (hashed), PKCE verifier and nonce, until the callback. */
export const IdpLogin = defineEntity({
  name: 'IdpLogin',
  tableName: 'idp_login',
  properties: (p) => ({
    stateHash: p.text().primary(),
    codeVerifier: p.text(),
    nonce: p.text(),
    returnTo: p.text(),
    expiresAt: p.datetime(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type IdpLogin = InferEntity<typeof IdpLogin>;

export const identityEntities = [
  Account,
  AccountEmail,
  Session,
  Workspace,
  WorkspaceMember,
  ApiKey,
  AccountToken,
  IdpLogin,
];
