import type { ApiScope } from '@gathercast/contract';
import type { Queryable } from '../db/pool';
import type { SessionKind } from '../lib/secrets';
import { hashSecret } from '../lib/secrets';
import { sessionLifetimeMs } from './cookies';
import type { CredentialCache } from '../lib/credential-cache';
import type { ApiKeyCaller, SessionCaller } from '../lib/actor';

const bearerKinds: Record<string, SessionKind> = { gcs_: 'account', gcw_: 'workspace', gcg_: 'guest', gce_: 'entry' };

export function sessionKindOf(token: string): SessionKind | undefined {
  return bearerKinds[token.slice(0, 4)];
}

/** Only the last-used time is written, and at most once a minute per key, to keep reads cheap. */
const lastUsedWriteIntervalMs = 60_000;
/** Account sessions slide: renewed to 30 days when used, at most once an hour. */
const renewIntervalMs = 3600_000;

/*
 * These run on every request, so a hit in the credential cache answers without the database; a miss
 * uses the raw pool with named (prepared) statements. The cache never outlives a revocation: see
 * credential-cache.ts. Unknown credentials are never cached.
 */

interface ApiKeyEntry {
  id: string;
  workspaceId: string;
  scopes: ApiScope[];
  eventId: string | null;
  /** Last write of last_used_at by this process (epoch ms). */
  lastUsedAt: number;
}

export async function findApiKey(db: Queryable, cache: CredentialCache, secret: string): Promise<ApiKeyCaller | null> {
  const secretHash = hashSecret(secret);
  const entry = await cache.lookup<ApiKeyEntry>(`k:${secretHash}`, async () => {
    const { rows } = await db.query<{
      id: string;
      workspace_id: string;
      scopes: ApiScope[];
      event_id: string | null;
      last_used_at: Date | null;
    }>({
      name: 'auth_find_api_key',
      text: 'select id, workspace_id, scopes, event_id, last_used_at from api_key where secret_hash = $1 and revoked_at is null',
      values: [secretHash],
    });
    const row = rows[0];
    return row && {
      id: row.id,
      workspaceId: row.workspace_id,
      scopes: row.scopes,
      eventId: row.event_id,
      lastUsedAt: row.last_used_at ? new Date(row.last_used_at).getTime() : 0 };
  });
  if (!entry) return null;
  if (Date.now() - entry.lastUsedAt > lastUsedWriteIntervalMs) {
    entry.lastUsedAt = Date.now();
    await db.query({ name: 'auth_touch_api_key', text: 'update api_key set last_used_at = now() where id = $1', values: [entry.id] });
  }
  return { id: entry.id, workspaceId: entry.workspaceId, scopes: entry.scopes, eventId: entry.eventId };
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
  member_role: 'owner' | 'admin' | 'member' | null;
}

/**
 * The session behind a token. When the route names a workspace, the account's role in it comes back
 * in the same round trip (and is cached with the session), so a session-authenticated workspace call
 * costs what an API key does.
 */
export async function findSession(
  db: Queryable,
  cache: CredentialCache,
  token: string,
  viaCookie: boolean,
  workspaceId: string | null = null,
): Promise<SessionCaller | null> {
  const kind = sessionKindOf(token);
  if (!kind) return null;
  const tokenHash = hashSecret(token);
  const row = await cache.lookup<SessionRow>(
    `s:${tokenHash}:${workspaceId ?? ''}`,
    async () => {
      const { rows } = await db.query<SessionRow>({
        name: 'auth_find_session',
        text: `select s.id, s.kind, s.account_id, s.workspace_id, s.event_id, s.subject_id, s.data, s.expires_at,
                      s.last_used_at, m.role as member_role
                 from session s
                 left join workspace_member m on m.account_id = s.account_id and m.workspace_id = $2::uuid
                where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now()`,
        values: [tokenHash, workspaceId],
      });
      return rows[0];
    },
    // A cached expiry may be older than a renewal another process wrote: look again rather than refuse.
    (cached) => new Date(cached.expires_at).getTime() > Date.now(),
  );
  if (!row) return null;
  if (row.kind !== kind) return null;
  let expiresAt = new Date(row.expires_at);
  let renewed = false;
  if (row.kind === 'account' && Date.now() - new Date(row.last_used_at).getTime() > renewIntervalMs) {
    expiresAt = new Date(Date.now() + sessionLifetimeMs);
    row.last_used_at = new Date();
    row.expires_at = expiresAt;
    await db.query({
      name: 'auth_renew_session',
      text: 'update session set last_used_at = now(), expires_at = $1 where id = $2',
      values: [expiresAt, row.id],
    });
    renewed = true;
  }
  return {
    id: row.id,
    kind: row.kind,
    accountId: row.account_id,
    workspaceId: row.workspace_id,
    eventId: row.event_id,
    subjectId: row.subject_id,
    data: { ...(row.data ?? {}) },
    expiresAt,
    viaCookie,
    renewed,
    memberRole: row.member_role,
    memberRoleWorkspace: workspaceId,
  };
}

export async function findMemberRole(
  db: Queryable,
  workspaceId: string,
  accountId: string,
): Promise<'owner' | 'admin' | 'member' | null> {
  const { rows } = await db.query<{ role: 'owner' | 'admin' | 'member' }>({
    name: 'auth_member_role',
    text: 'select role from workspace_member where workspace_id = $1 and account_id = $2',
    values: [workspaceId, accountId],
  });
  return rows[0]?.role ?? null;
}

export async function onlyWorkspaceOf(db: Queryable, accountId: string): Promise<string | null> {
  const { rows } = await db.query<{ workspace_id: string }>({
    name: 'auth_only_workspace',
    text: 'select workspace_id from workspace_member where account_id = $1 limit 2',
    values: [accountId],
  });
  return rows.length === 1 ? rows[0]!.workspace_id : null;
}
