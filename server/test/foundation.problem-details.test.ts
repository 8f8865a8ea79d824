import net from 'node:net';
import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * Problem details (RFC 9457): every problem carries `type`, `title` (its code in words) and `status`
 * (the HTTP status) besides `code` and `detail`; each `errors[]` entry of a bad_request carries a `path`
 * prefixed with the request part (`body.`, `query.`, `headers.`) and a stable per-field `code`.
 */
let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

describe('every problem', () => {
  it('carries the RFC 9457 title and status members', async () => {
    const res = await gc.raw.events.retrieve('00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      type: expect.stringMatching(/\/docs\/errors\/not_found$/),
      title: 'Not found',
      status: 404,
      code: 'not_found',
    });
  });

  it('carries them when the HTTP parser refuses the request before any route', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = net.connect(t.server.port, '127.0.0.1');
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write('GET /v1/events HTTP/1.1\r\nHost: x\r\nBad Header: \u0001\r\n\r\n', 'latin1');
    });
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ title: 'Bad request', status: 400, code: 'bad_request' });
  });
});

describe('errors[] of a bad_request', () => {
  it('names a missing field with code required', async () => {
    const res = await gc.raw.events.create({ type: 'webinar' } as never);
    expect(res.body).toMatchObject({ status: 400, errors: [{ path: 'body.title', code: 'required' }] });
  });

  it('names a string over its maximum with code too_long', async () => {
    const res = await gc.raw.events.create({ type: 'webinar', title: 'x'.repeat(201) });
    expect(res.body).toMatchObject({ errors: [{ path: 'body.title', code: 'too_long' }] });
  });

  it('names a value outside its enum with code invalid_enum', async () => {
    const res = await gc.raw.events.create({ type: 'webinar', title: 'T', visibility: 'secret' as never });
    expect(res.body).toMatchObject({ errors: [{ path: 'body.visibility', code: 'invalid_enum' }] });
  });

  it('names a query value under its minimum with code too_small, under query.', async () => {
    const res = await gc.raw.events.list({ limit: 0 });
    expect(res.body).toMatchObject({ errors: [{ path: 'query.limit', code: 'too_small' }] });
  });

  it('names a header with its code, under headers.', async () => {
    const res = await gc.raw.events.create(
      { type: 'webinar', title: 'T' },
      { idempotencyKey: 'k'.repeat(300) },
    );
    expect(res.body).toMatchObject({ errors: [{ path: 'headers.idempotency-key', code: 'too_long' }] });
  });
});
