import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { problem } from '../lib/problem';
import { hashSecret, newSecret, secretPrefixes } from '../lib/secrets';
import { sql } from '../db/sql';

export type AccountTokenKind = 'verify' | 'reset';

const lifetimeMs: Record<AccountTokenKind, number> = { verify: 48 * 3600 * 1000, reset: 3600 * 1000 };
const prefix: Record<AccountTokenKind, string> = { verify: secretPrefixes.verify, reset: secretPrefixes.reset };

/** A one-time token (gcv_ 48 h, gcr_ 1 h) for one email of one account; only its hash is stored. */
export async function issueAccountToken(
  em: EntityManager,
  kind: AccountTokenKind,
  accountId: string,
  email: string,
): Promise<string> {
  const token = newSecret(prefix[kind]);
  await sql(
    em,
    'insert into account_token (id, kind, token_hash, account_id, email, expires_at) values (?, ?, ?, ?, ?, ?)',
    [randomUUID(), kind, hashSecret(token), accountId, email, new Date(Date.now() + lifetimeMs[kind])],
  );
  return token;
}

/**
 * A one-time token for whichever account holds `email`, in ONE statement that runs the same whether
 * or not an account does: the token is generated either way, and `issued` says whether it was stored.
 * A caller that must not reveal which addresses have accounts (password reset) does the same work on
 * both paths.
 */
export async function issueAccountTokenByEmail(
  em: EntityManager,
  kind: AccountTokenKind,
  email: string,
): Promise<{ token: string; issued: boolean }> {
  const token = newSecret(prefix[kind]);
  const rows = await sql(
    em,
    `insert into account_token (id, kind, token_hash, account_id, email, expires_at)
     select ?, ?, ?, e.account_id, e.email, ? from account_email e where e.email = ?
     returning id`,
    [randomUUID(), kind, hashSecret(token), new Date(Date.now() + lifetimeMs[kind]), email.toLowerCase()],
  );
  return { token, issued: rows.length > 0 };
}

/**
 * Marks the token used and returns whom it was for. Unknown, expired, used or wrong-kind tokens
 * are all 400 invalid_token. The update is the check, so two concurrent uses cannot both win.
 */
export async function consumeAccountToken(
  em: EntityManager,
  kind: AccountTokenKind,
  token: string,
): Promise<{ accountId: string; email: string }> {
  const rows = await sql<{ account_id: string; email: string }>(
    em,
    `update account_token set used_at = now()
      where token_hash = ? and kind = ? and used_at is null and expires_at > now()
      returning account_id, email`,
    [hashSecret(token), kind],
  );
  const row = rows[0];
  if (!row) throw problem('invalid_token', 'The token is unknown, expired or already used');
  return { accountId: row.account_id, email: row.email };
}

/** After a reset, the account's other outstanding reset links stop working too. */
export async function expireAccountTokens(em: EntityManager, kind: AccountTokenKind, accountId: string): Promise<void> {
  await sql(em, 'update account_token set used_at = now() where account_id = ? and kind = ? and used_at is null', [
    accountId,
    kind,
  ]);
}
