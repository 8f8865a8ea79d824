import { webhookEventTypes } from '@gathercast/contract';
import { describe, expect, it } from 'vitest';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';
import { createWorkspaceWithKey } from './support/webhook-fixtures';

/**
 * The endpoints API: create / list / get / PATCH validation, event-type validation, the secret shown
 * once and never again, cross-workspace isolation, and https-only on a server started without
 * WEBHOOK_ALLOW_INSECURE_URLS. No deliveries here (see webhooks.delivery.test.ts).
 */
let open: TestServer; // WEBHOOK_ALLOW_INSECURE_URLS=true, as the delivery tests run
let strict: TestServer; // WEBHOOK_ALLOW_INSECURE_URLS unset: production rules
let keyA: string;
let keyB: string;
let keyStrict: string;

useTestServer({}, async (started) => {
  open = started;
  ({ apiKey: keyA } = await createWorkspaceWithKey(open.databaseUrl, 'A'));
  ({ apiKey: keyB } = await createWorkspaceWithKey(open.databaseUrl, 'B'));
});
useTestServer({ WEBHOOK_ALLOW_INSECURE_URLS: undefined }, async (started) => {
  strict = started;
  ({ apiKey: keyStrict } = await createWorkspaceWithKey(strict.databaseUrl, 'Strict'));
});

// biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are asserted field by field
type Json = Record<string, any>;

async function call(t: TestServer, apiKey: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? (JSON.parse(text) as Json) : undefined };
}

const fields = [
  'id',
  'workspaceId',
  'url',
  'eventTypes',
  'eventIds',
  'enabled',
  'disabledReason',
  'createdAt',
  'updatedAt',
];

describe('webhook endpoints API', () => {
  it('creates an endpoint, shows the whsec_ secret once, and never again in list or get', async () => {
    const created = await call(open, keyA, 'POST', '/v1/webhooks', { url: 'https://hooks.example.com/gc' });
    expect(created.status).toBe(201);
    expect(created.json!.secret).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
    expect(created.json).toMatchObject({
      url: 'https://hooks.example.com/gc',
      eventTypes: [],
      enabled: true,
      disabledReason: null,
    });
    const { id, secret } = created.json as { id: string; secret: string };

    const got = await call(open, keyA, 'GET', `/v1/webhooks/${id}`);
    expect(got.status).toBe(200);
    expect(Object.keys(got.json!).sort()).toEqual([...fields].sort());
    expect(got.text).not.toContain(secret);
    expect(got.text).not.toContain('whsec_');

    const list = await call(open, keyA, 'GET', '/v1/webhooks');
    expect(list.status).toBe(200);
    expect(list.json!.webhooks.map((w: { id: string }) => w.id)).toContain(id);
    for (const w of list.json!.webhooks) expect(Object.keys(w).sort()).toEqual([...fields].sort());
    expect(list.text).not.toContain('whsec_');

    const patched = await call(open, keyA, 'PATCH', `/v1/webhooks/${id}`, { eventTypes: ['event.ended'] });
    expect(patched.text).not.toContain('whsec_');
  });

  it('validates event types: known names only, duplicates folded, empty or omitted means all', async () => {
    const bad = await call(open, keyA, 'POST', '/v1/webhooks', {
      url: 'https://x.example.com/',
      eventTypes: ['event.exploded'],
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'bad_request' });
    expect(bad.json!.detail).toContain('eventTypes');

    const notArray = await call(open, keyA, 'POST', '/v1/webhooks', {
      url: 'https://x.example.com/',
      eventTypes: 'event.ended',
    });
    expect(notArray.status).toBe(400);

    const dup = await call(open, keyA, 'POST', '/v1/webhooks', {
      url: 'https://x.example.com/',
      eventTypes: ['event.ended', 'event.ended', 'event.started'],
    });
    expect(dup.status).toBe(201);
    expect(dup.json!.eventTypes).toEqual(['event.ended', 'event.started']);

    const every = await call(open, keyA, 'POST', '/v1/webhooks', {
      url: 'https://x.example.com/',
      eventTypes: [...webhookEventTypes],
    });
    expect(every.status).toBe(201);
    const empty = await call(open, keyA, 'POST', '/v1/webhooks', {
      url: 'https://x.example.com/',
      eventTypes: [],
    });
    expect(empty.json!.eventTypes).toEqual([]);
  });

  it('PATCH changes url, eventTypes and enabled, and refuses anything else', async () => {
    const { json: ep } = await call(open, keyA, 'POST', '/v1/webhooks', { url: 'https://a.example.com/' });
    const path = `/v1/webhooks/${ep!.id}`;

    const url = await call(open, keyA, 'PATCH', path, { url: 'https://b.example.com/new' });
    expect(url).toMatchObject({ status: 200, json: { url: 'https://b.example.com/new' } });
    const types = await call(open, keyA, 'PATCH', path, { eventTypes: ['question.created'] });
    expect(types.json!.eventTypes).toEqual(['question.created']);
    const off = await call(open, keyA, 'PATCH', path, { enabled: false });
    expect(off.json).toMatchObject({ enabled: false, disabledReason: 'manual' });
    const on = await call(open, keyA, 'PATCH', path, { enabled: true });
    expect(on.json).toMatchObject({ enabled: true, disabledReason: null });
    expect(new Date(on.json!.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(ep!.updatedAt).getTime());

    for (const body of [
      { secret: 'whsec_mine' }, // unknown field: the body is strict
      { url: 'not a url' },
      { url: 'ftp://a.example.com/' },
      { enabled: 'yes' },
      { eventTypes: ['nope'] },
    ]) {
      const res = await call(open, keyA, 'PATCH', path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json!.code).toBe('bad_request');
    }
    const after = await call(open, keyA, 'GET', path);
    expect(after.json).toMatchObject({
      url: 'https://b.example.com/new',
      eventTypes: ['question.created'],
      enabled: true,
    });
  });

  it('rejects a missing or malformed url on create', async () => {
    for (const body of [
      {},
      { url: '' },
      { url: 'hooks.example.com' },
      { url: 'https://user:pw@hooks.example.com/' },
    ]) {
      const res = await call(open, keyA, 'POST', '/v1/webhooks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("another workspace's endpoint is a 404, indistinguishable from a missing one", async () => {
    const { json: ep } = await call(open, keyA, 'POST', '/v1/webhooks', { url: 'https://mine.example.com/' });
    const id = ep!.id as string;
    const missing = await call(open, keyB, 'GET', `/v1/webhooks/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    for (const [method, path, body] of [
      ['GET', `/v1/webhooks/${id}`],
      ['PATCH', `/v1/webhooks/${id}`, { enabled: false }],
      ['DELETE', `/v1/webhooks/${id}`],
      ['POST', `/v1/webhooks/${id}/rotate-secret`],
      ['POST', `/v1/webhooks/${id}/test`, {}],
      ['GET', `/v1/webhooks/${id}/deliveries`],
      ['POST', `/v1/webhooks/${id}/deliveries/${crypto.randomUUID()}/retry`],
    ] as const) {
      const res = await call(open, keyB, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect({ code: res.json!.code, detail: res.json!.detail }).toEqual({
        code: missing.json!.code,
        detail: missing.json!.detail,
      });
    }
    expect(
      (await call(open, keyB, 'GET', '/v1/webhooks')).json!.webhooks.map((w: { id: string }) => w.id),
    ).not.toContain(id);
    // Untouched by B's attempts.
    expect((await call(open, keyA, 'GET', `/v1/webhooks/${id}`)).json).toMatchObject({ enabled: true });
  });

  it('without WEBHOOK_ALLOW_INSECURE_URLS: https only, and no loopback, private or localhost targets', async () => {
    const ok = await call(strict, keyStrict, 'POST', '/v1/webhooks', { url: 'https://hooks.example.com/gc' });
    expect(ok.status).toBe(201);
    for (const url of [
      'http://hooks.example.com/gc',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://api.localhost/x',
      'https://10.1.2.3/x',
      'https://192.168.0.10/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[fd00::1]/x',
    ]) {
      const res = await call(strict, keyStrict, 'POST', '/v1/webhooks', { url });
      expect(res.status, url).toBe(400);
      expect(res.json!.code, url).toBe('bad_request');
    }
    const patched = await call(strict, keyStrict, 'PATCH', `/v1/webhooks/${ok.json!.id}`, {
      url: 'http://hooks.example.com/gc',
    });
    expect(patched.status).toBe(400);
    // The same http URL is accepted where insecure URLs are allowed (tests, development).
    expect(
      (await call(open, keyA, 'POST', '/v1/webhooks', { url: 'http://hooks.example.com/gc' })).status,
    ).toBe(201);
  });
});
