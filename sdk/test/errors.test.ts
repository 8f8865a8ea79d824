import { describe, expect, it } from 'vitest';
import {
  createClient,
  GathercastAuthenticationError,
  GathercastConflictError,
  GathercastConnectionError,
  GathercastError,
  type GathercastErrorCode,
  GathercastNotFoundError,
  GathercastPermissionError,
  GathercastRateLimitError,
  GathercastServerError,
  GathercastValidationError,
} from '../src';

function fakeFetch(status: number, body: unknown, headers: Record<string, string> = {}): typeof fetch {
  return async () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/problem+json', ...headers },
    });
}

describe('SDK error mapping', () => {
  it('throws GathercastError with status, code, detail and requestId on a problem answer', async () => {
    const gc = createClient({
      baseUrl: 'http://api.test',
      apiKey: 'gck_x',
      fetch: fakeFetch(
        409,
        { type: 'http://api.test/docs/errors/invalid_state', code: 'invalid_state', detail: 'Event is live' },
        { 'x-request-id': 'req-1' },
      ),
    });
    const err = await gc.events.publish('00000000-0000-4000-8000-000000000000').catch((e) => e);
    expect(err).toBeInstanceOf(GathercastError);
    expect(err).toMatchObject({
      status: 409,
      code: 'invalid_state',
      detail: 'Event is live',
      requestId: 'req-1',
    });
  });

  it('carries errors[] of a bad_request', async () => {
    const gc = createClient({
      baseUrl: 'http://api.test',
      fetch: fakeFetch(400, {
        type: 't',
        code: 'bad_request',
        detail: 'x',
        errors: [{ path: 'body.title', code: 'required', message: 'Required' }],
      }),
    });
    const err = await gc.events.create({ type: 'x', title: 'y' }).catch((e) => e);
    expect(err.errors).toEqual([{ path: 'body.title', code: 'required', message: 'Required' }]);
  });

  it('reads Retry-After of a 429 into retryAfter', async () => {
    const gc = createClient({
      baseUrl: 'http://api.test',
      maxRetries: 0,
      fetch: fakeFetch(
        429,
        { type: 't', code: 'rate_limited', detail: 'slow down' },
        { 'retry-after': '42' },
      ),
    });
    const err = await gc.accounts.login({ email: 'a@b.co', password: 'x' }).catch((e) => e);
    expect(err).toMatchObject({ code: 'rate_limited', retryAfter: 42 });
  });

  it('gives a non-problem error the code unknown_error, keeping http_<status> as rawCode', async () => {
    const gc = createClient({
      baseUrl: 'http://api.test',
      maxRetries: 0,
      fetch: fakeFetch(502, 'Bad gateway', { 'content-type': 'text/plain' }),
    });
    const err = await gc.events.list().catch((e) => e);
    expect(err).toBeInstanceOf(GathercastServerError);
    expect(err).toMatchObject({
      status: 502,
      code: 'unknown_error',
      rawCode: 'http_502',
      detail: 'Bad gateway',
    });
  });

  it('keeps a code a newer server added as rawCode, with code unknown_error', async () => {
    const gc = createClient({
      baseUrl: 'http://api.test',
      fetch: fakeFetch(409, { type: 't', code: 'event_archived', detail: 'archived' }),
    });
    const err = await gc.events.publish('e1').catch((e) => e);
    expect(err).toBeInstanceOf(GathercastConflictError);
    expect(err).toMatchObject({ code: 'unknown_error', rawCode: 'event_archived' });
  });

  it('throws the subclass of each family', async () => {
    const families = [
      [400, 'bad_request', GathercastValidationError],
      [401, 'unauthorized', GathercastAuthenticationError],
      [403, 'forbidden', GathercastPermissionError],
      [404, 'not_found', GathercastNotFoundError],
      [409, 'invalid_state', GathercastConflictError],
      [429, 'rate_limited', GathercastRateLimitError],
      [501, 'not_implemented', GathercastServerError],
    ] as const;
    for (const [status, code, family] of families) {
      const gc = createClient({
        baseUrl: 'http://api.test',
        maxRetries: 0,
        fetch: fakeFetch(status, { type: 't', code, detail: 'd' }),
      });
      const err = await gc.events.list().catch((e) => e);
      expect(err).toBeInstanceOf(family);
      expect(err).toBeInstanceOf(GathercastError);
      expect(err.code).toBe(code);
    }
  });

  it('types code as the union of the API’s codes', () => {
    const accepts = (code: GathercastErrorCode) => code;
    expect(accepts('invalid_state')).toBe('invalid_state');
    // @ts-expect-error a misspelt code does not compile
    accepts('invalid_stat');
  });

  it('throws GathercastConnectionError when the server cannot be reached', async () => {
    const gc = createClient({
      baseUrl: 'http://api.test',
      maxRetries: 0,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(gc.events.list()).rejects.toBeInstanceOf(GathercastConnectionError);
  });

  it('sends the API key, the Bearer token and x-workspace-id', async () => {
    let seen: Headers | undefined;
    const gc = createClient({
      baseUrl: 'http://api.test/',
      apiKey: 'gck_k',
      sessionToken: 'gcs_s',
      workspaceId: 'w1',
      fetch: async (_url, init) => {
        seen = new Headers(init?.headers);
        return new Response(JSON.stringify({ events: [], nextCursor: null }), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    expect(await gc.events.list()).toEqual({ events: [], nextCursor: null });
    expect(seen?.get('x-api-key')).toBe('gck_k');
    expect(seen?.get('authorization')).toBe('Bearer gcs_s');
    expect(seen?.get('x-workspace-id')).toBe('w1');
  });
});
