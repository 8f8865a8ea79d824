import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, uniqueEmail } from './support/accounts';
import { TestBrowser, TestOpenIdProvider } from './support/oidc-provider';
import { freePort } from './support/ports';
import { startTestServer, type TestServer } from './support/server';

let t: TestServer;
let op: TestOpenIdProvider;
let unconfigured: TestServer;

beforeAll(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  op = await TestOpenIdProvider.start(
    'gathercast-test',
    'client-secret-for-tests',
    `${base}/v1/auth/idp/callback`,
  );
  t = await startTestServer({
    PORT: String(port),
    PUBLIC_BASE_URL: base,
    OIDC_ISSUER: op.issuer,
    OIDC_CLIENT_ID: 'gathercast-test',
    OIDC_CLIENT_SECRET: 'client-secret-for-tests',
  });
  unconfigured = await startTestServer();
});
afterAll(async () => {
  await t.close();
  await unconfigured.close();
  await op.close();
});

const isCallback = (location: string) => location.startsWith(`${t.url}/v1/auth/idp/callback`);

/** Runs the browser through start → provider → back to our callback URL (not yet fetched). */
async function toCallback(browser: TestBrowser, returnTo?: string): Promise<string> {
  const start = `${t.url}/v1/auth/idp/start${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`;
  const { location } = await browser.follow(start, isCallback);
  if (!location) throw new Error('the provider never redirected back');
  return location;
}

describe('identity-provider sign-in', () => {
  it('redirects to the provider with state and an S256 PKCE challenge', async () => {
    const res = await new TestBrowser().get(`${t.url}/v1/auth/idp/start`);
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get('location')!);
    expect(url.origin).toBe(op.issuer);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('redirect_uri')).toBe(`${t.url}/v1/auth/idp/callback`);
  });

  it('creates the account for a new verified email, sets the cookie and redirects to returnTo', async () => {
    const email = uniqueEmail('idp');
    op.nextIdentity = { sub: `sub-${email}`, email, emailVerified: true, name: 'Federated Fran' };
    const browser = new TestBrowser();
    const callback = await toCallback(browser, '/dashboard?tab=events');
    const res = await browser.get(callback);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${t.url}/dashboard?tab=events`);
    const session = browser.cookies.get('gc_session')!;
    expect(session).toMatch(/^gcs_/);
    const me = await t.client({ sessionToken: session }).accounts.retrieve();
    expect(me).toMatchObject({ email, name: 'Federated Fran', emailVerified: true });
    expect(me.workspaces).toHaveLength(1);
  });

  it('signs an existing account in by its email instead of creating another', async () => {
    const person = await signUp(t, 'existing');
    op.nextIdentity = {
      sub: `sub-${person.email}`,
      email: person.email,
      emailVerified: true,
      name: 'Someone Else',
    };
    const browser = new TestBrowser();
    await browser.get(await toCallback(browser));
    const me = await t.client({ sessionToken: browser.cookies.get('gc_session')! }).accounts.retrieve();
    expect(me.id).toBe(person.accountId);
    expect(me.emailVerified).toBe(true);
  });

  it('refuses a callback whose state does not match the browser with 400 invalid_token', async () => {
    op.nextIdentity = { sub: 'sub-bad-state', email: uniqueEmail('idp'), emailVerified: true, name: 'X' };
    const browser = new TestBrowser();
    const callback = new URL(await toCallback(browser));
    callback.searchParams.set('state', 'forged-state');
    const res = await browser.get(callback.href);
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('invalid_token');
    expect(browser.cookies.has('gc_session')).toBe(false);
  });

  it('refuses a callback replayed from another browser with 400 invalid_token', async () => {
    op.nextIdentity = { sub: 'sub-replay', email: uniqueEmail('idp'), emailVerified: true, name: 'X' };
    const callback = await toCallback(new TestBrowser());
    const res = await new TestBrowser().get(callback);
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('invalid_token');
  });

  it('answers a provider error with 401 unauthorized naming the error, and sets no session', async () => {
    op.deny = true;
    try {
      const browser = new TestBrowser();
      const callback = await toCallback(browser);
      expect(new URL(callback).searchParams.get('error')).toBe('access_denied');
      const res = await browser.get(callback);
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body.code).toBe('unauthorized');
      expect(body.detail).toContain('access_denied');
      expect(browser.cookies.has('gc_session')).toBe(false);
    } finally {
      op.deny = false;
    }
  });

  it('refuses an identity whose email the provider has not verified with 401 unauthorized', async () => {
    op.nextIdentity = { sub: 'sub-unverified', email: uniqueEmail('idp'), emailVerified: false, name: 'X' };
    const browser = new TestBrowser();
    const res = await browser.get(await toCallback(browser));
    expect(res.status).toBe(401);
    expect(browser.cookies.has('gc_session')).toBe(false);
  });

  it('refuses an absolute returnTo (open redirect) with 400 bad_request', async () => {
    const res = await new TestBrowser().get(
      `${t.url}/v1/auth/idp/start?returnTo=${encodeURIComponent('https://evil.example/')}`,
    );
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('bad_request');
  });
});

describe('identity-provider sign-in when OIDC_* is unset', () => {
  it('answers start with 503 idp_not_configured', async () => {
    const res = await new TestBrowser().get(`${unconfigured.url}/v1/auth/idp/start`);
    expect([res.status, (await res.json()).code]).toEqual([503, 'idp_not_configured']);
  });

  it('answers callback with 503 idp_not_configured', async () => {
    const res = await new TestBrowser().get(`${unconfigured.url}/v1/auth/idp/callback?code=x&state=y`);
    expect([res.status, (await res.json()).code]).toEqual([503, 'idp_not_configured']);
  });
});
