import { describe, expect, it } from 'vitest';
import { apiKeyOf, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

// Contract routes are grouped by method and their first two path segments (http/route-table.ts), so a
// request is matched against a dozen routes, not all of them. Matching must stay what Express's defaults
// give: these pin the cases a grouping key could get wrong.
let t: TestServer;
let headers: Record<string, string>;
let eventId: string;
useTestServer({}, async (started) => {
  t = started;
  const owner = await signUp(t, 'routes');
  headers = { 'x-api-key': await apiKeyOf(owner) };
  const created = await fetch(`${t.url}/v1/events`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'webinar', title: 'Routing' }),
  });
  eventId = (await created.json()).id;
});

describe('grouped routes', () => {
  it('match paths case-insensitively, as before grouping', async () => {
    const res = await fetch(`${t.url}/V1/Events/${eventId}`, { headers });
    expect(res.status).toBe(200);
    expect((await res.json()).id).toBe(eventId);
  });

  it('match a path with a trailing slash', async () => {
    const res = await fetch(`${t.url}/v1/events/`, { headers });
    expect(res.status).toBe(200);
    expect((await res.json()).events.map((e: { id: string }) => e.id)).toContain(eventId);
  });

  it('serve HEAD from the GET route: same status, no body', async () => {
    const res = await fetch(`${t.url}/v1/events/${eventId}`, { method: 'HEAD', headers });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('reach a group holding one route: DELETE /v1/recordings/{id} answers from its handler, not as an unknown path', async () => {
    const res = await fetch(`${t.url}/v1/recordings/00000000-0000-4000-8000-000000000000`, {
      method: 'DELETE',
      headers,
    });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.code).toBe('not_found');
    expect(body.detail).not.toMatch(/No route/);
  });

  it('hand an error raised inside a group to the problem renderer (bad body: 400 with the field)', async () => {
    const res = await fetch(`${t.url}/v1/events/${eventId}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 42 }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain('body.title');
  });
});

describe('health, metrics and docs routes, entered only for their own paths', () => {
  it('still match case-insensitively and with a trailing slash (/HEALTHZ, /docs/reference/)', async () => {
    expect((await fetch(`${t.url}/HEALTHZ`)).status).toBe(200);
    const reference = await fetch(`${t.url}/docs/reference/`);
    expect(reference.status).toBe(200);
    expect(reference.headers.get('content-type')).toContain('text/html');
  });

  it('serve the OpenAPI document at /v1/openapi.json, beside the contract routes under /v1', async () => {
    const res = await fetch(`${t.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect((await res.json()).openapi).toMatch(/^3\./);
  });
});
