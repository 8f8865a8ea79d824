import net from 'node:net';
import { maxInputDepth } from '@gathercast/contract';
import { describe, expect, it } from 'vitest';
import type { WorkspaceFixture } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
let ws: WorkspaceFixture;
useServerWithWorkspace((started) => {
  ({ t, ws } = started);
});

const problemType = 'application/problem+json';

async function send(method: string, path: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { 'x-api-key': ws.apiKey, 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: text ? JSON.parse(text) : null,
  };
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Sends raw bytes over one connection and returns what came back before the server closed it. */
function rawHttp(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(t.server.port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(request, 'latin1');
  });
}

describe('strings PostgreSQL cannot store', () => {
  it('refuses a NUL in a body field with 400 naming the field', async () => {
    const res = await send('POST', '/v1/events', JSON.stringify({ type: 'talk', title: 'A\u0000B' }));
    expect(res.status).toBe(400);
    expect(res.type).toContain(problemType);
    expect(res.body.code).toBe('bad_request');
    expect(res.body.errors).toEqual([
      { path: 'body.title', code: 'invalid_text', message: expect.stringContaining('NUL') },
    ]);
  });

  it('refuses a NUL deep inside metadata, in a value or in a key', async () => {
    const inValue = await send(
      'POST',
      '/v1/events',
      JSON.stringify({ type: 't', title: 'T', metadata: { a: [{ b: 'x\u0000' }] } }),
    );
    expect(inValue.status).toBe(400);
    expect(inValue.body.errors[0].path).toBe('body.metadata.a.0.b');
    const inKey = await send(
      'POST',
      '/v1/events',
      JSON.stringify({ type: 't', title: 'T', metadata: { 'k\u0000': 1 } }),
    );
    expect(inKey.status).toBe(400);
    expect(inKey.body.errors[0].path).toBe('body.metadata.k\\u0000');
  });

  it('refuses a lone surrogate in a body field', async () => {
    // JSON.stringify escapes a lone surrogate as \udc00, which JSON.parse turns back into one.
    const res = await send('POST', '/v1/events', JSON.stringify({ type: 'talk', title: 'A\udc00' }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({
      path: 'body.title',
      code: 'invalid_text',
      message: expect.stringContaining('surrogate'),
    });
  });

  it('refuses a NUL in a query value', async () => {
    const res = await fetch(`${t.url}/v1/events?cursor=a%00b`, { headers: { 'x-api-key': ws.apiKey } });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].path).toBe('query.cursor');
  });

  it('accepts paired surrogates (emoji) and stores them', async () => {
    const res = await send('POST', '/v1/events', JSON.stringify({ type: 'talk', title: 'Launch 🚀' }));
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Launch 🚀');
  });
});

describe('nesting', () => {
  it(`accepts a body nested exactly ${maxInputDepth} levels (the body itself is level 1)`, async () => {
    const res = await send(
      'POST',
      '/v1/events',
      JSON.stringify({ type: 't', title: 'T', metadata: nested(maxInputDepth - 1) }),
    );
    expect(res.status).toBe(201);
  });

  it(`refuses a body nested deeper than ${maxInputDepth} levels with 400`, async () => {
    const res = await send(
      'POST',
      '/v1/events',
      JSON.stringify({ type: 't', title: 'T', metadata: nested(maxInputDepth) }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toContain(`${maxInputDepth} levels`);
  });

  it('refuses 10,000 levels of metadata with 400, also with an Idempotency-Key', async () => {
    const body = `{"type":"t","title":"T","metadata":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const res = await send('POST', '/v1/events', body, { 'idempotency-key': 'deep-1' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
  });
});

describe('timestamps', () => {
  it.each([
    ['an offset beyond ±15:59', '2026-06-01T10:00:00+18:35'],
    ['a compact offset beyond ±15:59', '2026-06-01T10:00:00-1601'],
    ['year 0000', '0000-01-01T00:00:00Z'],
    ['an instant past year 9999', '9999-12-31T23:59:59-15:00'],
  ])('refuses %s with 400 naming the field', async (_label, scheduledAt) => {
    const res = await send('POST', '/v1/events', JSON.stringify({ type: 't', title: 'T', scheduledAt }));
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.scheduledAt']);
  });

  it('accepts the widest offset PostgreSQL stores', async () => {
    const res = await send(
      'POST',
      '/v1/events',
      JSON.stringify({ type: 't', title: 'T', scheduledAt: '2026-06-01T10:00:00+15:59' }),
    );
    expect(res.status).toBe(201);
    expect(new Date(res.body.scheduledAt).toISOString()).toBe('2026-05-31T18:01:00.000Z');
  });
});

describe('bodies that are not JSON', () => {
  it.each([
    ['form-encoded', 'application/x-www-form-urlencoded', 'name=x'],
    ['plain text', 'text/plain', '{"name":"x"}'],
  ])('answers a %s body with 415 unsupported_media_type', async (_label, contentType, body) => {
    const res = await send('POST', `/v1/workspaces/${ws.workspaceId}/api-keys`, body, {
      'content-type': contentType,
    });
    expect(res.status).toBe(415);
    expect(res.type).toContain(problemType);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('answers a PATCH with a form body with 415 and changes nothing', async () => {
    const res = await send('PATCH', `/v1/workspaces/${ws.workspaceId}`, 'name=renamed', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(415);
  });

  it('still accepts a body-less POST without a content type', async () => {
    const created = await send('POST', '/v1/events', JSON.stringify({ type: 't', title: 'T' }));
    const res = await fetch(`${t.url}/v1/events/${created.body.id}/publish`, {
      method: 'POST',
      headers: { 'x-api-key': ws.apiKey },
    });
    expect(res.status).toBe(200);
  });
});

describe("requests Node's HTTP parser refuses", () => {
  it('answers headers over 16 KiB with 431 headers_too_large as problem+json', async () => {
    const answer = await rawHttp(
      `GET /v1/events HTTP/1.1\r\nHost: x\r\nIdempotency-Key: ${'k'.repeat(60_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('Content-Type: application/problem+json');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code).toBe('headers_too_large');
  });

  it('answers an invalid header character with 400 bad_request as problem+json', async () => {
    const answer = await rawHttp('GET /v1/events HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code).toBe('bad_request');
  });

  it('keeps serving after refusing them', async () => {
    const res = await fetch(`${t.url}/v1/events`, { headers: { 'x-api-key': ws.apiKey } });
    expect(res.status).toBe(200);
  });
});
