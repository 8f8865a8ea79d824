import { describe, expect, it } from 'vitest';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
useTestServer({}, (started) => {
  t = started;
});

const problemType = 'application/problem+json';

describe('problem+json for every error class', () => {
  it('answers an unknown route with 404 not_found', async () => {
    const res = await fetch(`${t.url}/v1/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain(problemType);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'not_found', type: `${t.url}/docs/errors/not_found` });
    expect(typeof body.detail).toBe('string');
  });

  it('answers malformed JSON with 400 bad_request', async () => {
    const res = await fetch(`${t.url}/v1/accounts/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": ',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain(problemType);
    expect((await res.json()).code).toBe('bad_request');
  });

  it('names every invalid field in errors[] on a validation failure', async () => {
    const res = await fetch(`${t.url}/v1/accounts/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'not-an-email', password: 'short' }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('bad_request');
    const paths = body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['body.email', 'body.name', 'body.password']);
  });

  it('answers a body over 1 MiB with 413 payload_too_large', async () => {
    const res = await fetch(`${t.url}/v1/accounts/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain(problemType);
    expect((await res.json()).code).toBe('payload_too_large');
  });

  it('answers a missing credential with 401 unauthorized', async () => {
    const res = await fetch(`${t.url}/v1/events`);
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('unauthorized');
  });

  it('answers an unknown API key with 401 unauthorized', async () => {
    const res = await fetch(`${t.url}/v1/events`, { headers: { 'x-api-key': 'gck_nope' } });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('unauthorized');
  });

  it('sets x-request-id on every response and honours an incoming one', async () => {
    const own = await fetch(`${t.url}/healthz`);
    expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await fetch(`${t.url}/v1/nope`, { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
  });
});

describe('a contract route without a handler', () => {
  it('answers 501 not_implemented (the router completes every route)', async () => {
    const { completeRouter } = await import('../src/app/routes');
    const { initContract } = await import('@ts-rest/core');
    const c = initContract();
    const router = c.router({
      built: { method: 'GET', path: '/built', responses: { 200: c.type<null>() } },
      unbuilt: { method: 'GET', path: '/unbuilt', responses: { 200: c.type<null>() } },
    });
    const built = async () => ({ status: 200, body: null });
    const completed = completeRouter(router, { built }) as Record<string, () => Promise<unknown>>;
    expect(completed.built).toBe(built);
    await expect(completed.unbuilt!()).rejects.toMatchObject({ code: 'not_implemented', status: 501 });
  });
});
