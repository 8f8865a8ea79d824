import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { sql } from '../db/sql';

export interface UserRecord {
  id: string;
  workspaceId: string;
  externalSub: string;
  accountId: string | null;
  email: string | null;
  name: string | null;
  picture: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface UpsertUserInput {
  externalSub: string;
  accountId?: string | null;
  /** undefined keeps the stored value; null clears it. */
  email?: string | null;
  name?: string | null;
  picture?: string | null;
}

interface Row {
  id: string;
  workspace_id: string;
  external_sub: string;
  account_id: string | null;
  email: string | null;
  name: string | null;
  picture: string | null;
  created_at: Date;
  updated_at: Date;
  inserted: boolean;
}

/**
 * Creates or updates a user by (workspace, externalSub) in one statement, so concurrent upserts of
 * the same subject never collide. `created` tells which happened.
 */
export async function upsertUser(
  em: EntityManager,
  workspaceId: string,
  input: UpsertUserInput,
): Promise<{ user: UserRecord; created: boolean }> {
  const rows = await sql<Row>(
    em,
    `insert into app_user (id, workspace_id, external_sub, account_id, email, name, picture)
     values (?, ?, ?, ?, ?, ?, ?)
     on conflict (workspace_id, external_sub) do update set
       account_id = coalesce(excluded.account_id, app_user.account_id),
       email = case when ? then excluded.email else app_user.email end,
       name = case when ? then excluded.name else app_user.name end,
       picture = case when ? then excluded.picture else app_user.picture end,
       updated_at = now()
     returning *, (xmax = 0) as inserted`,
    [
      randomUUID(),
      workspaceId,
      input.externalSub,
      input.accountId ?? null,
      input.email ?? null,
      input.name ?? null,
      input.picture ?? null,
      input.email !== undefined,
      input.name !== undefined,
      input.picture !== undefined,
    ],
  );
  const r = rows[0]!;
  return { created: r.inserted, user: toRecord(r) };
}

const toRecord = (r: Omit<Row, 'inserted'>): UserRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  externalSub: r.external_sub,
  accountId: r.account_id,
  email: r.email,
  name: r.name,
  picture: r.picture,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** The workspace's users, oldest first (bridged account identities included). */
export async function listUsers(
  em: EntityManager,
  workspaceId: string,
  input: PageInput,
): Promise<{ users: UserRecord[]; nextCursor: string | null }> {
  const page = await timeOrderedPage<Row>(
    em,
    { select: 'select * from app_user where workspace_id = ?', params: [workspaceId] },
    input,
  );
  return { users: page.rows.map(toRecord), nextCursor: page.nextCursor };
}

/** The participant identity an account has in a workspace (the session bridge and event creators use it). */
export async function bridgedUserFor(
  em: EntityManager,
  workspaceId: string,
  account: { id: string; name: string; email: string | null },
): Promise<UserRecord> {
  const { user } = await upsertUser(em, workspaceId, {
    externalSub: `account:${account.id}`,
    accountId: account.id,
    name: account.name,
    email: account.email,
  });
  return user;
}
