import type { EntityManager } from '@mikro-orm/postgresql';
import { problem } from '../lib/problem';
import { iso, sql } from '../db/sql';
import type { z } from 'zod';
import type { accountSchema } from '@gathercast/contract';

/** As the contract says (`accountSchema`). */
export type AccountView = z.infer<typeof accountSchema>;

/** The account as every account route returns it: its emails (primary first) and workspaces. */
export async function accountView(em: EntityManager, accountId: string): Promise<AccountView> {
  const [accounts, emails, workspaces] = await Promise.all([
    sql<{ id: string; name: string; created_at: Date }>(em, 'select id, name, created_at from account where id = ?', [accountId]),
    sql<{ email: string; primary: boolean; verified_at: Date | null }>(
      em,
      'select email, "primary", verified_at from account_email where account_id = ? order by "primary" desc, created_at',
      [accountId],
    ),
    sql<AccountView['workspaces'][number]>(
      em,
      `select w.id, w.name, w.slug, m.role from workspace_member m join workspace w on w.id = m.workspace_id
        where m.account_id = ? order by m.created_at, w.id`,
      [accountId],
    ),
  ]);
  const account = accounts[0];
  if (!account) throw problem('unauthorized', 'The account no longer exists');
  const primary = emails.find((e) => e.primary) ?? emails[0];
  return {
    id: account.id,
    email: primary?.email ?? '',
    name: account.name,
    emailVerified: !!primary?.verified_at,
    emails: emails.map((e) => ({ email: e.email, primary: e.primary, verified: !!e.verified_at })),
    workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, slug: w.slug, role: w.role })),
    createdAt: iso(account.created_at)!,
  };
}

export async function findAccountByEmail(
  em: EntityManager,
  email: string,
): Promise<{ id: string; name: string; passwordHash: string | null; verified: boolean } | null> {
  const rows = await sql<{ id: string; name: string; password_hash: string | null; verified_at: Date | null }>(
    em,
    `select a.id, a.name, a.password_hash, e.verified_at from account_email e join account a on a.id = e.account_id
      where e.email = ?`,
    [email.toLowerCase()],
  );
  const r = rows[0];
  return r ? { id: r.id, name: r.name, passwordHash: r.password_hash, verified: !!r.verified_at } : null;
}

export async function primaryEmailOf(em: EntityManager, accountId: string): Promise<string | null> {
  const rows = await sql<{ email: string }>(em, 'select email from account_email where account_id = ? and "primary"', [accountId]);
  return rows[0]?.email ?? null;
}
