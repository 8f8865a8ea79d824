import type { EntityManager } from '@mikro-orm/postgresql';
import type { SessionKind } from '../identity/entities';
import { hashSecret } from '../lib/secrets';
import { sessionLifetimeMs } from './cookies';

export interface ApiKeyCaller {
  id: string;
  workspaceId: string;
}

export interface SessionCaller {
  id: string;
  kind: SessionKind;
  accountId: string | null;
  workspaceId: string | null;
  eventId: string | null;
  subjectId: string | null;
  data: Record<string, unknown>;
  expiresAt: Date;
  /** Whether it came from the gc_session cookie (CSRF checks apply) or a Bearer header. */
  viaCookie: boolean;
  /** Set when the sliding lifetime was renewed on this request, so the cookie is re-issued. */
  renewed: boolean;
}

const bearerKinds: Record<string, SessionKind> = { gcs_: 'account', gcw_: 'workspace', gcg_: 'guest', gce_: 'entry' };

export function sessionKindOf(token: string): SessionKind | undefined {
  return bearerKinds[token.slice(0, 4)];
}

/** Only the last-used time is written, and at most once a minute per key, to keep reads cheap. */
const lastUsedWriteIntervalMs = 60_000;
/** Account sessions slide: renewed to 30 days when used, at most once an hour. */
const renewIntervalMs = 3600_000;

export async function findApiKey(em: EntityManager, secret: string): Promise<ApiKeyCaller | null> {
  const rows = await em
    .getConnection()
    .execute<{ id: string; workspace_id: string; last_used_at: Date | null }[]>(
      'select id, workspace_id, last_used_at from api_key where secret_hash = ? and revoked_at is null',
      [hashSecret(secret)],
    );
  const row = rows[0];
  if (!row) return null;
  if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > lastUsedWriteIntervalMs) {
    await em.getConnection().execute('update api_key set last_used_at = now() where id = ?', [row.id]);
  }
  return { id: row.id, workspaceId: row.workspace_id };
}

interface SessionRow {
  id: string;
  kind: SessionKind;
  account_id: string | null;
  workspace_id: string | null;
  event_id: string | null;
  subject_id: string | null;
  data: Record<string, unknown>;
  expires_at: Date;
  last_used_at: Date;
}

export async function findSession(em: EntityManager, token: string, viaCookie: boolean): Promise<SessionCaller | null> {
  const kind = sessionKindOf(token);
  if (!kind) return null;
  const rows = await em
    .getConnection()
    .execute<SessionRow[]>(
      `select id, kind, account_id, workspace_id, event_id, subject_id, data, expires_at, last_used_at
         from session where token_hash = ? and revoked_at is null and expires_at > now()`,
      [hashSecret(token)],
    );
  const row = rows[0];
  if (!row || row.kind !== kind) return null;
  let expiresAt = new Date(row.expires_at);
  let renewed = false;
  if (row.kind === 'account' && Date.now() - new Date(row.last_used_at).getTime() > renewIntervalMs) {
    expiresAt = new Date(Date.now() + sessionLifetimeMs);
    await em
      .getConnection()
      .execute('update session set last_used_at = now(), expires_at = ? where id = ?', [expiresAt, row.id]);
    renewed = true;
  }
  return {
    id: row.id,
    kind: row.kind,
    accountId: row.account_id,
    workspaceId: row.workspace_id,
    eventId: row.event_id,
    subjectId: row.subject_id,
    data: row.data ?? {},
    expiresAt,
    viaCookie,
    renewed,
  };
}

export async function findMemberRole(
  em: EntityManager,
  workspaceId: string,
  accountId: string,
): Promise<'owner' | 'admin' | 'member' | null> {
  const rows = await em
    .getConnection()
    .execute<{ role: 'owner' | 'admin' | 'member' }[]>(
      'select role from workspace_member where workspace_id = ? and account_id = ?',
      [workspaceId, accountId],
    );
  return rows[0]?.role ?? null;
}

export async function onlyWorkspaceOf(em: EntityManager, accountId: string): Promise<string | null> {
  const rows = await em
    .getConnection()
    .execute<{ workspace_id: string }[]>('select workspace_id from workspace_member where account_id = ? limit 2', [
      accountId,
    ]);
  return rows.length === 1 ? rows[0]!.workspace_id : null;
}
