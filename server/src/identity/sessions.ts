import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sessionLifetimeMs } from '../http/cookies';
import { hashSecret, newSecret, secretPrefixes } from '../lib/secrets';
import { sql } from '../db/sql';

export const workspaceSessionLifetimeMs = 12 * 3600 * 1000;

export interface IssuedSession {
  id: string;
  token: string;
  expiresAt: Date;
}

/** A gcs_ account session (30 days, sliding on use). Only the token's SHA-256 is stored. */
export async function createAccountSession(em: EntityManager, accountId: string): Promise<IssuedSession> {
  const token = newSecret(secretPrefixes.accountSession);
  const id = randomUUID();
  const expiresAt = new Date(Date.now() + sessionLifetimeMs);
  await sql(
    em,
    `insert into session (id, kind, token_hash, account_id, expires_at) values (?, 'account', ?, ?, ?)`,
    [id, hashSecret(token), accountId, expiresAt],
  );
  return { id, token, expiresAt };
}

/** A gcw_ workspace session (12 h, fixed) carrying the bridged participant identity. */
export async function createWorkspaceSession(
  em: EntityManager,
  input: { accountId: string; workspaceId: string; userId: string },
): Promise<IssuedSession> {
  const token = newSecret(secretPrefixes.workspaceSession);
  const id = randomUUID();
  const expiresAt = new Date(Date.now() + workspaceSessionLifetimeMs);
  await sql(
    em,
    `insert into session (id, kind, token_hash, account_id, workspace_id, subject_id, expires_at)
     values (?, 'workspace', ?, ?, ?, ?, ?)`,
    [id, hashSecret(token), input.accountId, input.workspaceId, input.userId, expiresAt],
  );
  return { id, token, expiresAt };
}

/**
 * A session bound to one event (`gcg_` guest, `gce_` entry): no account, the event's workspace, the
 * subject (guest `sub`, registration id) and what the gateway shows of it in `data`. Only the token's
 * SHA-256 is stored; the token is returned once.
 */
export async function createEventSession(
  em: EntityManager,
  input: {
    kind: 'guest' | 'entry';
    workspaceId: string;
    eventId: string;
    subjectId: string;
    data: Record<string, unknown>;
    expiresAt: Date;
  },
): Promise<IssuedSession> {
  const token = newSecret(input.kind === 'guest' ? secretPrefixes.guestSession : secretPrefixes.entrySession);
  const id = randomUUID();
  await sql(
    em,
    `insert into session (id, kind, token_hash, workspace_id, event_id, subject_id, data, expires_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      input.kind,
      hashSecret(token),
      input.workspaceId,
      input.eventId,
      input.subjectId,
      JSON.stringify(input.data),
      input.expiresAt,
    ],
  );
  return { id, token, expiresAt: input.expiresAt };
}

export async function revokeSession(em: EntityManager, sessionId: string): Promise<void> {
  await sql(em, 'update session set revoked_at = now() where id = ? and revoked_at is null', [sessionId]);
}

/** Ends every session of the account (account and workspace kinds) except `keepId`. */
export async function revokeOtherSessions(
  em: EntityManager,
  accountId: string,
  keepId?: string,
): Promise<void> {
  await sql(
    em,
    'update session set revoked_at = now() where account_id = ? and revoked_at is null and id <> ?',
    [accountId, keepId ?? '00000000-0000-0000-0000-000000000000'],
  );
}
