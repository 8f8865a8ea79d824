import { describe, expect, it } from 'vitest';
import { failure, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
let https: TestServer;
const allowedOrigin = 'https://app.partner.example';
useTestServer({ CORS_ORIGINS: allowedOrigin }, (started) => {
  t = started;
});
useTestServer({ PUBLIC_BASE_URL: 'https://api.gathercast.example' }, (started) => {
  https = started;
});

const sql = (server: TestServer, text: string, params: unknown[]) =>
  server.server.ctx.orm.em.getConnection().execute(text, params);

describe('session cookie', () => {
  it('is Secure when PUBLIC_BASE_URL is https', async () => {
    const res = await fetch(`${https.url}/v1/accounts/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `secure-${Date.now()}@example.test`,
        password: 'long-enough',
        name: 'S',
      }),
    });
    expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
  });

  it('slides: a session used after an hour is renewed to 30 days and the cookie re-issued', async () => {
    const person = await signUp(t);
    await sql(
      t,
      `update session set last_used_at = now() - interval '2 hours', expires_at = now() + interval '1 day' where account_id = ?`,
      [person.accountId],
    );
    const res = await fetch(`${t.url}/v1/accounts/me`, {
      headers: { cookie: `gc_session=${person.sessionToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^gc_session=gcs_/);
    const [row] = await sql(t, 'select expires_at from session where account_id = ?', [person.accountId]);
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
  });

  it('is refused once expired with 401 unauthorized', async () => {
    const person = await signUp(t);
    await sql(t, `update session set expires_at = now() - interval '1 second' where account_id = ?`, [
      person.accountId,
    ]);
    const err = await failure(person.client.accounts.retrieve());
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
  });
});

describe('CSRF: cookie-authenticated writes', () => {
  const write = (origin: string, auth: Record<string, string>, workspaceId: string) =>
    fetch(`${t.url}/v1/workspaces/${workspaceId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin, ...auth },
      body: JSON.stringify({ name: 'Renamed' }),
    });

  it('are refused from a foreign Origin with 403 csrf_rejected', async () => {
    const person = await signUp(t);
    const res = await write(
      'https://evil.example',
      { cookie: `gc_session=${person.sessionToken}` },
      person.workspaceId,
    );
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('csrf_rejected');
  });

  it('are accepted from the service’s own origin and from CORS_ORIGINS', async () => {
    const person = await signUp(t);
    const own = await write(t.url, { cookie: `gc_session=${person.sessionToken}` }, person.workspaceId);
    const partner = await write(
      allowedOrigin,
      { cookie: `gc_session=${person.sessionToken}` },
      person.workspaceId,
    );
    expect([own.status, partner.status]).toEqual([200, 200]);
  });

  it('do not apply to Bearer tokens, which browsers never attach on their own', async () => {
    const person = await signUp(t);
    const res = await write(
      'https://evil.example',
      { authorization: `Bearer ${person.sessionToken}` },
      person.workspaceId,
    );
    expect(res.status).toBe(200);
  });
});

describe('CORS', () => {
  const preflight = (origin: string) =>
    fetch(`${t.url}/v1/accounts/me`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-workspace-id',
      },
    });

  it('allows an origin in CORS_ORIGINS with credentials', async () => {
    const res = await preflight(allowedOrigin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(allowedOrigin);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-workspace-id');
  });

  it('gives any other origin no CORS headers', async () => {
    const res = await preflight('https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('workspace resolution for session callers on workspace-less routes', () => {
  it('needs x-workspace-id when the account has several workspaces (400 bad_request)', async () => {
    const person = await signUp(t);
    await person.client.workspaces.create({ name: 'Another' });
    const res = await fetch(`${t.url}/v1/events`, {
      headers: { authorization: `Bearer ${person.sessionToken}` },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([expect.objectContaining({ path: 'headers.x-workspace-id' })]);
  });

  it('answers an x-workspace-id the account is not a member of with 404 not_found', async () => {
    const person = await signUp(t);
    const other = await signUp(t);
    const res = await fetch(`${t.url}/v1/events`, {
      headers: { authorization: `Bearer ${person.sessionToken}`, 'x-workspace-id': other.workspaceId },
    });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('not_found');
  });

  it('passes authentication with the x-workspace-id of one of the account’s workspaces', async () => {
    const person = await signUp(t);
    const second = await person.client.workspaces.create({ name: 'Another' });
    const res = await fetch(`${t.url}/v1/events`, {
      headers: { authorization: `Bearer ${person.sessionToken}`, 'x-workspace-id': second.id },
    });
    expect([400, 401, 403, 404]).not.toContain(res.status);
  });
});

describe('session kinds', () => {
  it('refuses a workspace session token on account routes with 401 unauthorized', async () => {
    const person = await signUp(t);
    const { sessionToken } = await person.client.workspaces.createSession(person.workspaceId);
    const err = await failure(t.client({ sessionToken }).accounts.retrieve());
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
  });

  it('refuses a workspace session token on management routes with 403 forbidden', async () => {
    const person = await signUp(t);
    const { sessionToken } = await person.client.workspaces.createSession(person.workspaceId);
    const err = await failure(t.client({ sessionToken }).members.list(person.workspaceId));
    expect([err.status, err.code]).toEqual([403, 'forbidden']);
  });

  it('refuses an unknown Bearer token with 401 unauthorized', async () => {
    const err = await failure(t.client({ sessionToken: 'gcs_unknown' }).accounts.retrieve());
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
  });
});
