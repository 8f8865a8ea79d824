import { describe, expect, it } from 'vitest';
import { failure, mailboxOf, signUp, uniqueEmail } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
useTestServer({}, (started) => {
  t = started;
});

const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe('signup', () => {
  it('creates the account with its primary email, an owned workspace and a session token', async () => {
    const email = uniqueEmail();
    const account = await t.client().accounts.signup({ email, password: 'long-enough', name: 'Ada' });
    expect(account).toMatchObject({ email, name: 'Ada', emailVerified: false });
    expect(account.emails).toEqual([{ email, primary: true, verified: false }]);
    expect(account.workspaces).toHaveLength(1);
    expect(account.workspaces[0]).toMatchObject({ role: 'owner' });
    expect(account.workspaces[0]!.slug).toMatch(/^[a-z0-9-]{3,48}$/);
    expect(account.sessionToken).toMatch(/^gcs_[A-Za-z0-9_-]{43}$/);
  });

  it('gives the first workspace a default API key', async () => {
    const owner = await signUp(t);
    const { apiKeys } = await owner.client.apiKeys.list(owner.workspaceId);
    expect(apiKeys).toHaveLength(1);
    expect(apiKeys[0]).toMatchObject({ name: 'Default', status: 'active' });
  });

  it('sets the gc_session cookie with HttpOnly, SameSite=Lax, Path=/ and a 30-day lifetime', async () => {
    const res = await fetch(`${t.url}/v1/accounts/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail(), password: 'long-enough', name: 'Cookie' }),
    });
    expect(res.status).toBe(201);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^gc_session=gcs_/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(cookie).not.toContain('Secure');
    const body = await res.json();
    expect(cookie).toContain(body.sessionToken);
  });

  it('returns verifyUrl in email dev mode and sends the same link by email', async () => {
    const email = uniqueEmail();
    const account = await t.client().accounts.signup({ email, password: 'long-enough', name: 'Dev' });
    expect(account.verifyUrl).toMatch(/token=gcv_/);
    const [mail] = await mailboxOf(t, email);
    expect(mail!.links).toEqual([account.verifyUrl]);
    expect(mail!.text).toContain(account.verifyUrl);
    expect(mail!.html).toContain(account.verifyUrl);
  });

  it('refuses an email that already has an account with 409 email_taken', async () => {
    const first = await signUp(t);
    const err = await failure(
      t
        .client()
        .accounts.signup({ email: first.email.toUpperCase(), password: 'long-enough', name: 'Again' }),
    );
    expect([err.status, err.code]).toEqual([409, 'email_taken']);
  });

  it('refuses a password under 8 characters with 400 bad_request', async () => {
    const err = await failure(
      t.client().accounts.signup({ email: uniqueEmail(), password: 'short', name: 'x' }),
    );
    expect([err.status, err.code]).toEqual([400, 'bad_request']);
  });
});

describe('login and logout', () => {
  it('signs in with the right password and returns the account with a new session', async () => {
    const person = await signUp(t);
    const account = await t.client().accounts.login({ email: person.email, password: person.password });
    expect(account.id).toBe(person.accountId);
    expect(account.sessionToken).not.toBe(person.sessionToken);
    expect(account.workspaces.map((w) => w.id)).toEqual([person.workspaceId]);
  });

  it('answers a wrong password with 401 invalid_credentials', async () => {
    const person = await signUp(t);
    const err = await failure(t.client().accounts.login({ email: person.email, password: 'wrong-password' }));
    expect([err.status, err.code]).toEqual([401, 'invalid_credentials']);
  });

  it('answers an unknown email with the same 401 invalid_credentials', async () => {
    const err = await failure(t.client().accounts.login({ email: uniqueEmail(), password: 'whatever1' }));
    expect([err.status, err.code]).toEqual([401, 'invalid_credentials']);
  });

  it('ends the session on logout and clears the cookie', async () => {
    const person = await signUp(t);
    const res = await fetch(`${t.url}/v1/accounts/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${person.sessionToken}` },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toMatch(/^gc_session=;/);
    const err = await failure(person.client.accounts.retrieve());
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
  });
});

describe('me', () => {
  it('returns the account, its emails and its workspaces with roles', async () => {
    const person = await signUp(t, 'me', 'Grace');
    const me = await person.client.accounts.retrieve();
    expect(me).toMatchObject({ id: person.accountId, email: person.email, name: 'Grace' });
    expect(me.emails).toEqual([{ email: person.email, primary: true, verified: false }]);
    expect(me.workspaces).toEqual([expect.objectContaining({ id: person.workspaceId, role: 'owner' })]);
  });

  it('accepts the session cookie as well as the Bearer token', async () => {
    const person = await signUp(t);
    const res = await fetch(`${t.url}/v1/accounts/me`, {
      headers: { cookie: `gc_session=${person.sessionToken}` },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).id).toBe(person.accountId);
  });

  it('answers without a session with 401 unauthorized', async () => {
    const err = await failure(t.client().accounts.retrieve());
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
  });
});

describe('email verification', () => {
  it('marks the email verified with the token from the verification email', async () => {
    const email = uniqueEmail();
    const account = await t.client().accounts.signup({ email, password: 'long-enough', name: 'V' });
    const result = await t.client().accounts.verify({ token: tokenOf(account.verifyUrl!) });
    expect(result).toEqual({ verified: true, email });
    const me = await t.client({ sessionToken: account.sessionToken }).accounts.retrieve();
    expect(me.emailVerified).toBe(true);
    expect(me.emails[0]!.verified).toBe(true);
  });

  it('refuses a used verification token with 400 invalid_token', async () => {
    const account = await t
      .client()
      .accounts.signup({ email: uniqueEmail(), password: 'long-enough', name: 'V' });
    await t.client().accounts.verify({ token: tokenOf(account.verifyUrl!) });
    const err = await failure(t.client().accounts.verify({ token: tokenOf(account.verifyUrl!) }));
    expect([err.status, err.code]).toEqual([400, 'invalid_token']);
  });

  it('refuses an unknown token with 400 invalid_token', async () => {
    const err = await failure(t.client().accounts.verify({ token: 'gcv_nope' }));
    expect([err.status, err.code]).toEqual([400, 'invalid_token']);
  });

  it('refuses a verification token older than 48 hours with 400 invalid_token', async () => {
    const account = await t
      .client()
      .accounts.signup({ email: uniqueEmail(), password: 'long-enough', name: 'V' });
    await t.server.ctx.orm.em
      .getConnection()
      .execute(
        `update account_token set created_at = now() - interval '49 hours', expires_at = now() - interval '1 hour' where account_id = ?`,
        [account.id],
      );
    const err = await failure(t.client().accounts.verify({ token: tokenOf(account.verifyUrl!) }));
    expect([err.status, err.code]).toEqual([400, 'invalid_token']);
  });
});

describe('password reset', () => {
  it('answers the same whatever the address', async () => {
    const person = await signUp(t);
    const known = await t.client().accounts.requestPasswordReset({ email: person.email });
    const unknown = await t.client().accounts.requestPasswordReset({ email: uniqueEmail() });
    expect(Object.keys(known).sort()).toEqual(Object.keys(unknown).sort());
    expect(known.requested).toBe(true);
    expect(unknown.requested).toBe(true);
    expect(unknown.resetUrl).toMatch(/token=gcr_[A-Za-z0-9_-]{43}$/);
    expect(known.resetUrl).toMatch(/token=gcr_[A-Za-z0-9_-]{43}$/);
  });

  it('emails the reset link only to an address that has an account', async () => {
    const person = await signUp(t);
    const stranger = uniqueEmail();
    const { resetUrl } = await t.client().accounts.requestPasswordReset({ email: person.email });
    await t.client().accounts.requestPasswordReset({ email: stranger });
    expect((await mailboxOf(t, person.email))[0]!.links).toEqual([resetUrl]);
    expect(await mailboxOf(t, stranger)).toEqual([]);
  });

  it('sets the new password so that login works with it and not with the old one', async () => {
    const person = await signUp(t);
    const { resetUrl } = await t.client().accounts.requestPasswordReset({ email: person.email });
    await t.client().accounts.resetPassword({ token: tokenOf(resetUrl!), password: 'brand-new-pass' });
    await t.client().accounts.login({ email: person.email, password: 'brand-new-pass' });
    const err = await failure(t.client().accounts.login({ email: person.email, password: person.password }));
    expect(err.code).toBe('invalid_credentials');
  });

  it('works once: a second reset with the same token is 400 invalid_token', async () => {
    const person = await signUp(t);
    const { resetUrl } = await t.client().accounts.requestPasswordReset({ email: person.email });
    await t.client().accounts.resetPassword({ token: tokenOf(resetUrl!), password: 'brand-new-pass' });
    const err = await failure(
      t.client().accounts.resetPassword({ token: tokenOf(resetUrl!), password: 'another-pass' }),
    );
    expect([err.status, err.code]).toEqual([400, 'invalid_token']);
  });

  it('ends every other session of the account', async () => {
    const person = await signUp(t);
    const other = await t.client().accounts.login({ email: person.email, password: person.password });
    const { resetUrl } = await t.client().accounts.requestPasswordReset({ email: person.email });
    await person.client.accounts.resetPassword({ token: tokenOf(resetUrl!), password: 'brand-new-pass' });
    const err = await failure(t.client({ sessionToken: other.sessionToken }).accounts.retrieve());
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
    expect((await person.client.accounts.retrieve()).id).toBe(person.accountId);
  });

  it('refuses a reset token older than one hour with 400 invalid_token', async () => {
    const person = await signUp(t);
    const { resetUrl } = await t.client().accounts.requestPasswordReset({ email: person.email });
    await t.server.ctx.orm.em
      .getConnection()
      .execute(
        `update account_token set expires_at = now() - interval '1 second' where account_id = ? and kind = 'reset'`,
        [person.accountId],
      );
    const err = await failure(
      t.client().accounts.resetPassword({ token: tokenOf(resetUrl!), password: 'brand-new-pass' }),
    );
    expect([err.status, err.code]).toEqual([400, 'invalid_token']);
  });

  it('refuses the made-up link an unknown address gets with 400 invalid_token', async () => {
    const { resetUrl } = await t.client().accounts.requestPasswordReset({ email: uniqueEmail() });
    const err = await failure(
      t.client().accounts.resetPassword({ token: tokenOf(resetUrl!), password: 'brand-new-pass' }),
    );
    expect([err.status, err.code]).toEqual([400, 'invalid_token']);
  });
});
