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
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
export type Account = InferEntity<typeof Account>;

export const AccountEmail = defineEntity({
  name: 'AccountEmail',
  tableName: 'account_email',
  properties: (p) => ({
    id: p.uuid().primary(),
    accountId: p.uuid(),
    /** Lower-cased; unique across accounts. */
    email: p.text(),
    primary: p.boolean(),
    verifiedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  }),
});
export type AccountEmail = InferEntity<typeof AccountEmail>;


/** Every bearer-style session (gcs_, gcw_, gcg_, gce_): only the SHA-256 of the token is kept. */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'session',
  properties: (p) => ({
    id: p.uuid().primary(),
    kind: p.enum([...sessionKinds]),
    tokenHash: p.text(),
    accountId: p.uuid().nullable(),
    workspaceId: p.uuid().nullable(),
    eventId: p.uuid().nullable(),
    /** Participant identity (workspace sessions), registration (entry sessions) or guest subject. */
    subjectId: p.text().nullable(),
    data: p.json<Record<string, unknown>>(),
    expiresAt: p.datetime(),
    lastUsedAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  }),
});
export type Session = InferEntity<typeof Session>;

export const Workspace = defineEntity({
  name: 'Workspace',
  tableName: 'workspace',
  properties: (p) => ({
    id: p.uuid().primary(),
    name: p.text(),
    slug: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
export type Workspace = InferEntity<typeof Workspace>;

export const WorkspaceMember = defineEntity({
  name: 'WorkspaceMember',
  tableName: 'workspace_member',
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    accountId: p.uuid(),
    role: p.enum(['owner', 'admin', 'member'] as const),
    createdAt: p.datetime(),
  }),
});
export type WorkspaceMember = InferEntity<typeof WorkspaceMember>;

export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    name: p.text().nullable(),
    secretHash: p.text(),
    createdAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  }),
});
export type ApiKey = InferEntity<typeof ApiKey>;

export const identityEntities = [Account, AccountEmail, Session, Workspace, WorkspaceMember, ApiKey];
