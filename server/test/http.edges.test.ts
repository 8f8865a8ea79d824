import { describe, expect, it } from 'vitest';
import { helpChatLimit } from '../src/help/routes';
import { signUp } from './support/accounts';
import { askRaw, clientAddress } from './support/help';
import { useTestServer } from './support/hooks';
import { startTestServer, type TestServer } from './support/server';

let t: TestServer;
useTestServer({ TRUST_PROXY: 'true' }, (started) => {
  t = started;
});

const problemType = 'application/problem+json';

describe('a known path with a method it does not take', () => {
  it('answers 405 method_not_allowed with Allow listing the methods the path takes', async () => {
    const res = await fetch(`${t.url}/v1/events`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toContain(problemType);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    const body = await res.json();
    expect(body).toMatchObject({
      code: 'method_not_allowed',
      type: `${t.url}/docs/errors/method_not_allowed`,
    });
  });

  it('reads path parameters: PUT /v1/events/{id} lists DELETE, GET, HEAD, PATCH', async () => {
    const res = await fetch(`${t.url}/v1/events/6f1c1a52-5d0e-4c43-9a53-1f2b8c6f0a11`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH');
  });

  it('covers the routes outside the contract too (POST /healthz)', async () => {
    const res = await fetch(`${t.url}/healthz`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('still answers 404 not_found for a path that does not exist under any method', async () => {
    const res = await fetch(`${t.url}/v1/no-such-thing`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(res.headers.get('allow')).toBeNull();
    expect((await res.json()).code).toBe('not_found');
  });
});

describe('401 answers', () => {
  it('carry WWW-Authenticate naming the Bearer and API-key schemes when no credential was sent', async () => {
    const res = await fetch(`${t.url}/v1/events`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="gathercast", ApiKey realm="gathercast", header="x-api-key"',
    );
  });

  it('name a refused Bearer token invalid_token in the challenge', async () => {
    const res = await fetch(`${t.url}/v1/accounts/me`, { headers: { authorization: 'Bearer gcs_unknown' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer realm="gathercast", error="invalid_token"');
  });

  it('carry it on a wrong password (invalid_credentials) too', async () => {
    const res = await fetch(`${t.url}/v1/accounts/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress() },
      body: JSON.stringify({ email: 'nobody@example.test', password: 'wrong password' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });
});

describe('the request id in problem bodies', () => {
  it('equals the x-request-id header of the same answer', async () => {
    const res = await fetch(`${t.url}/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const body = await res.json();
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  const json = { 'content-type': 'application/json' };
  it.each([
    ['400 bad_request (malformed JSON)', '/v1/accounts/login', { method: 'POST', headers: json, body: '{' }],
    ['401 unauthorized', '/v1/events', {}],
    ['404 not_found', '/v1/no-such-thing', {}],
    ['405 method_not_allowed', '/v1/events', { method: 'PUT' }],
    [
      '413 payload_too_large',
      '/v1/accounts/login',
      { method: 'POST', headers: json, body: `"${'x'.repeat(1_100_000)}"` },
    ],
    [
      '415 unsupported_media_type',
      '/v1/accounts/login',
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' },
    ],
  ] as const)('is in a %s answer too', async (name, path, init) => {
    const res = await fetch(`${t.url}${path}`, init as RequestInit);
    expect(`${res.status} ${res.headers.get('content-type')}`).toBe(
      `${name.slice(0, 3)} application/problem+json; charset=utf-8`,
    );
    const body = await res.json();
    expect(body.code).toBe(name.split(' ')[1]);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('echoes an incoming x-request-id', async () => {
    const res = await fetch(`${t.url}/v1/nope`, { headers: { 'x-request-id': 'trace-edge-1' } });
    expect((await res.json()).requestId).toBe('trace-edge-1');
  });
});

describe('rate-limit headers', () => {
  it('tell a help-chat caller the quota, what is left and when the window starts over', async () => {
    const address = clientAddress();
    const first = await askRaw(
      t.url,
      { messages: [{ role: 'user', text: 'How do I create an event?' }] },
      address,
    );
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe(String(helpChatLimit.points));
    expect(first.headers.get('ratelimit-remaining')).toBe(String(helpChatLimit.points - 1));
    const reset = Number(first.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(helpChatLimit.durationSeconds);
    expect(first.headers.get('ratelimit-policy')).toBe(
      `${helpChatLimit.points};w=${helpChatLimit.durationSeconds}`,
    );
  });

  it('come with Retry-After on the refusal once the quota is spent', async () => {
    const address = clientAddress();
    const ask = () => askRaw(t.url, { messages: [{ role: 'user', text: 'What is a phase?' }] }, address);
    for (let i = 0; i < helpChatLimit.points; i++) expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-reset')).toBe(refused.headers.get('retry-after'));
  });

  it('count down failed logins for the email and client address', async () => {
    const owner = await signUp(t, 'ratelimit');
    const address = clientAddress();
    const attempt = (password: string) =>
      fetch(`${t.url}/v1/accounts/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ email: owner.email, password }),
      });
    const failed = await attempt('not the password');
    expect(failed.status).toBe(401);
    expect(failed.headers.get('ratelimit-limit')).toBe('10');
    expect(failed.headers.get('ratelimit-remaining')).toBe('9');
    const ok = await attempt(owner.password);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-remaining')).toBe('9');
  });
});

describe('/readyz', () => {
  it('answers 503 in the same problem shape as every other error', async () => {
    const own = await startTestServer();
    try {
      await own.server.ctx.orm.close(true);
      const res = await fetch(`${own.url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain(problemType);
      const body = await res.json();
      expect(body).toMatchObject({
        type: `${own.url}/docs/errors/service_unavailable`,
        code: 'service_unavailable',
        requestId: res.headers.get('x-request-id'),
      });
      expect(typeof body.detail).toBe('string');
    } finally {
      await own.close().catch(() => {});
    }
  });
});
