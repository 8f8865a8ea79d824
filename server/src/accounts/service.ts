import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { EmailQueue } from '../email/queue';
import { resetEmail, verifyEmail } from '../email/templates';
import { problem } from '../lib/problem';
import { type RateLimit, type RateLimitState, tightest } from '../lib/rate-limits';
import { consumeAccountToken, expireAccountTokens, issueAccountToken, issueAccountTokenByEmail } from '../identity/account-tokens';
import { hashPassword, verifyPassword } from '../identity/passwords';
import { createAccountSession, type IssuedSession, revokeOtherSessions } from '../identity/sessions';
import { isUniqueViolation, sql } from '../db/sql';
import { createWorkspace } from '../workspaces/service';
import { type AccountView, accountView, findAccountByEmail } from './account-view';

export interface AccountsDeps {
  config: Config;
  emails: EmailQueue;
  logger: Logger;
  /** Failed logins per email and per client address (10 per 15 minutes each). */
  loginFailures: { byEmail: RateLimit; byAddress: RateLimit };
}

export interface SignedIn {
  account: AccountView;
  session: IssuedSession;
}

export const verifyLink = (config: Config, token: string) => `${config.publicBaseUrl}/verify-email?token=${token}`;
export const resetLink = (config: Config, token: string) => `${config.publicBaseUrl}/reset-password?token=${token}`;

/** Inserts an account with its primary email; 409 email_taken when the address has an account. */
export async function insertAccount(
  em: EntityManager,
  input: { email: string; name: string; passwordHash: string | null; verified: boolean },
): Promise<string> {
  const id = randomUUID();
  await sql(em, 'insert into account (id, name, password_hash) values (?, ?, ?)', [id, input.name, input.passwordHash]);
  try {
    await sql(em, 'insert into account_email (id, account_id, email, "primary", verified_at) values (?, ?, ?, true, ?)', [
      randomUUID(),
      id,
      input.email,
      input.verified ? new Date() : null,
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw problem('email_taken', 'An account with this email already exists');
    throw err;
  }
  return id;
}

/**
 * Creates the account, its primary email, its first workspace (owner, generated slug, first default
 * key), a session and the verification email, in one transaction. `verifyUrl` only in email dev mode.
 */
export async function signup(
  em: EntityManager,
  deps: AccountsDeps,
  input: { email: string; password: string; name: string },
): Promise<SignedIn & { verifyUrl?: string }> {
  const passwordHash = await hashPassword(input.password);
  const { accountId, session, link } = await em.transactional(async (tx) => {
    const accountId = await insertAccount(tx, { email: input.email, name: input.name, passwordHash, verified: false });
    await createWorkspace(tx, accountId, { name: `${input.name}'s workspace` });
    const link = verifyLink(deps.config, await issueAccountToken(tx, 'verify', accountId, input.email));
    await deps.emails.enqueue(tx, verifyEmail(input.email, input.name, link));
    const session = await createAccountSession(tx, accountId);
    return { accountId, session, link };
  });
  return {
    account: await accountView(em, accountId),
    session,
    ...(deps.emails.devMode ? { verifyUrl: link } : {}),
  };
}

/**
 * Email and password. Both counters are checked before any work, and a failure counts against the
 * email and the client address alike; an unknown email costs the same argon2 work as a wrong password.
 */
export async function login(
  em: EntityManager,
  deps: AccountsDeps,
  input: { email: string; password: string; clientAddress: string },
): Promise<SignedIn & { rateLimit: RateLimitState }> {
  const { byEmail, byAddress } = deps.loginFailures;
  const [, byAddressState] = await Promise.all([byEmail.check(input.email), byAddress.check(input.clientAddress)]);
  const account = await findAccountByEmail(em, input.email);
  const ok = await verifyPassword(account?.passwordHash ?? null, input.password);
  if (!account || !ok) {
    const after = await Promise.all([byEmail.penalize(input.email), byAddress.penalize(input.clientAddress)]);
    throw problem('invalid_credentials', 'The email or password is wrong', { rateLimit: tightest(after) });
  }
  await byEmail.reset(input.email);
  const session = await createAccountSession(em, account.id);
  // The email's failures are forgiven; the address's window still stands.
  return { account: await accountView(em, account.id), session, rateLimit: byAddressState };
}

export async function verifyAccountEmail(em: EntityManager, token: string): Promise<{ verified: true; email: string }> {
  return em.transactional(async (tx) => {
    const { accountId, email } = await consumeAccountToken(tx, 'verify', token);
    await sql(tx, 'update account_email set verified_at = coalesce(verified_at, now()) where account_id = ? and email = ?', [
      accountId,
      email,
    ]);
    return { verified: true as const, email };
  });
}

/**
 * The same answer, and the same work, whatever the address: one transaction of the same two
 * statements on both paths (store the token if an account holds the address; queue the email if the
 * token was stored), so neither the answer nor its timing tells whether the address has an account.
 * In email dev mode even an unknown address gets a well-formed resetUrl (a token that was never stored).
 */
export async function requestPasswordReset(
  em: EntityManager,
  deps: AccountsDeps,
  email: string,
): Promise<{ requested: true; resetUrl?: string }> {
  const link = await em.transactional(async (tx) => {
    const { token, issued } = await issueAccountTokenByEmail(tx, 'reset', email);
    const link = resetLink(deps.config, token);
    await deps.emails.enqueue(tx, resetEmail(email, link), { onlyIf: issued });
    return link;
  });
  return { requested: true, ...(deps.emails.devMode ? { resetUrl: link } : {}) };
}

/** Single use; sets the password and ends every other session of the account (and other reset links). */
export async function resetPassword(
  em: EntityManager,
  input: { token: string; password: string; currentSessionId?: string },
): Promise<{ reset: true }> {
  const passwordHash = await hashPassword(input.password);
  await em.transactional(async (tx) => {
    const { accountId, email } = await consumeAccountToken(tx, 'reset', input.token);
    await sql(tx, 'update account set password_hash = ?, updated_at = now() where id = ?', [passwordHash, accountId]);
    await expireAccountTokens(tx, 'reset', accountId);
    // A reset also proves the address: the link reached that inbox.
    await sql(tx, 'update account_email set verified_at = coalesce(verified_at, now()) where account_id = ? and email = ?', [
      accountId,
      email,
    ]);
    await revokeOtherSessions(tx, accountId, input.currentSessionId);
  });
  return { reset: true };
}
