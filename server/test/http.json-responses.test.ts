import { describe, expect, it } from 'vitest';
import { apiKeyOf, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

// JSON answers are written straight to the response (http/json-responses.ts), not through Express's
// json and send: their headers must be what Express would give, with the length in bytes (not
// characters) and no body for HEAD, both for objects and for JSON rendered by PostgreSQL (a page).
const title = 'Café ☕ 🎉 über';
let t: TestServer;
let headers: Record<string, string>;
let created: Response;
let createdBytes: Buffer;
useTestServer({}, async (started) => {
  t = started;
  headers = { 'x-api-key': await apiKeyOf(await signUp(t, 'json-responses')) };
  created = await fetch(`${t.url}/v1/events`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'webinar', title }),
  });
  createdBytes = Buffer.from(await created.arrayBuffer());
});

async function bytesOf(res: Response) {
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
  return JSON.parse(bytes.toString('utf8'));
}

describe('a JSON answer', () => {
  it('of an object is JSON with charset utf-8 and a content-length counted in bytes', async () => {
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(created.headers.get('content-length'))).toBe(createdBytes.length);
    expect(JSON.parse(createdBytes.toString('utf8')).title).toBe(title);
  });

  it('of a pre-rendered page is the same: charset utf-8, length in bytes', async () => {
    const res = await fetch(`${t.url}/v1/events`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await bytesOf(res)).events.map((e: { title: string }) => e.title)).toEqual([title]);
  });

  it('answers HEAD with the same headers and no body, for an object and for a page', async () => {
    const { id } = JSON.parse(createdBytes.toString('utf8'));
    for (const path of [`/v1/events/${id}`, '/v1/events']) {
      const get = await fetch(`${t.url}${path}`, { headers });
      const head = await fetch(`${t.url}${path}`, { method: 'HEAD', headers });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
      expect(await head.text()).toBe('');
    }
  });

  it('outside the contract routes (health) is JSON too', async () => {
    const res = await fetch(`${t.url}/healthz`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await bytesOf(res)).toEqual({ status: 'ok' });
  });
});
