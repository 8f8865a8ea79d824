import { describe, expect, it } from 'vitest';
import {
  createClient,
  GathercastAbortError,
  GathercastConflictError,
  GathercastConnectionError,
  GathercastRateLimitError,
  GathercastServerError,
  GathercastTimeoutError,
  VERSION,
} from '../src';
import { backoffMs } from '../src/core';

interface Seen {
  url: string;
  method: string;
  headers: Headers;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'network-error';

/** A fetch that answers from a script, in order (the last answer repeats), and records every request. */
function scripted(...answers: Answer[]) {
  const seen: Seen[] = [];
  const fetch: typeof globalThis.fetch = async (url, init) => {
    seen.push({ url: String(url), method: init?.method ?? 'GET', headers: new Headers(init?.headers) });
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    if (answer === 'network-error') throw new TypeError('fetch failed');
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  };
  return { fetch, seen };
}

const problem = (status: number, code: string, headers: Record<string, string> = {}): Answer => ({
  status,
  body: { type: 't', code, detail: code },
  // Retry-After: 0 keeps the tests quick where the backoff itself is not under test.
  headers: { 'content-type': 'application/problem+json', 'retry-after': '0', ...headers },
});
const page = { status: 200, body: { events: [], nextCursor: null } };
const event = { status: 201, body: { id: 'e1' } };

describe('retries', () => {
  it('retries a 5xx and counts the retries', async () => {
    const { fetch, seen } = scripted(
      problem(503, 'service_unavailable'),
      problem(500, 'internal_error'),
      page,
    );
    const res = await createClient({ baseUrl: 'http://api.test', fetch }).events.list().withResponse();
    expect([res.status, res.retries, seen.length]).toEqual([200, 2, 3]);
  });

  it('stops after maxRetries (default 2) and throws the last answer', async () => {
    const { fetch, seen } = scripted(problem(503, 'service_unavailable'));
    await expect(createClient({ baseUrl: 'http://api.test', fetch }).events.list()).rejects.toBeInstanceOf(
      GathercastServerError,
    );
    expect(seen).toHaveLength(3);
  });

  it('takes maxRetries per call over the client’s', async () => {
    const { fetch, seen } = scripted(problem(503, 'service_unavailable'));
    const gc = createClient({ baseUrl: 'http://api.test', fetch, maxRetries: 5 });
    await gc.events.list(undefined, { maxRetries: 1 }).catch(() => undefined);
    expect(seen).toHaveLength(2);
  });

  it('does not retry 501 not_implemented, 4xx answers, or a 409 without Retry-After', async () => {
    for (const answer of [
      problem(501, 'not_implemented'),
      problem(400, 'bad_request'),
      { status: 409, body: { type: 't', code: 'invalid_state', detail: 'live' } },
    ]) {
      const { fetch, seen } = scripted(answer, page);
      await createClient({ baseUrl: 'http://api.test', fetch })
        .events.list()
        .catch(() => undefined);
      expect(seen).toHaveLength(1);
    }
  });

  it('retries a 409 with Retry-After (the same Idempotency-Key still in progress)', async () => {
    const { fetch, seen } = scripted(problem(409, 'conflict'), event);
    const res = await createClient({ baseUrl: 'http://api.test', fetch })
      .events.create({ type: 'webinar', title: 'x' })
      .withResponse();
    expect(res.retries).toBe(1);
    expect(seen.map((s) => s.headers.get('idempotency-key'))).toEqual([
      res.idempotencyKey,
      res.idempotencyKey,
    ]);
  });

  it('does not wait for a Retry-After over 60 s: the 429 goes to the caller', async () => {
    const { fetch, seen } = scripted(problem(429, 'rate_limited', { 'retry-after': '120' }), page);
    const err = await createClient({ baseUrl: 'http://api.test', fetch })
      .events.list()
      .catch((e) => e);
    expect(err).toBeInstanceOf(GathercastRateLimitError);
    expect(err.retryAfter).toBe(120);
    expect(seen).toHaveLength(1);
  });

  it('retries a connection error, then throws GathercastConnectionError when they keep failing', async () => {
    const { fetch, seen } = scripted('network-error');
    const gc = createClient({ baseUrl: 'http://api.test', fetch, maxRetries: 1 });
    await expect(gc.events.list()).rejects.toBeInstanceOf(GathercastConnectionError);
    expect(seen).toHaveLength(2);
  });

  it('backs off exponentially from 0.5 s to at most 8 s, with jitter below the base', () => {
    for (const [retry, base] of [
      [0, 500],
      [1, 1000],
      [3, 4000],
      [4, 8000],
      [9, 8000],
    ] as const) {
      const delay = backoffMs(retry);
      expect(delay).toBeLessThanOrEqual(base);
      expect(delay).toBeGreaterThanOrEqual(base * 0.75);
    }
  });
});

describe('Idempotency-Key', () => {
  it('sends a generated key on every POST, and none on a GET', async () => {
    const { fetch, seen } = scripted(event, page);
    const gc = createClient({ baseUrl: 'http://api.test', fetch });
    await gc.events.create({ type: 'webinar', title: 'x' });
    await gc.events.list();
    expect(seen[0]?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]?.headers.has('idempotency-key')).toBe(false);
  });

  it('generates a new key per call', async () => {
    const { fetch, seen } = scripted(event);
    const gc = createClient({ baseUrl: 'http://api.test', fetch });
    await gc.events.create({ type: 'webinar', title: 'x' });
    await gc.events.create({ type: 'webinar', title: 'x' });
    expect(seen[0]?.headers.get('idempotency-key')).not.toBe(seen[1]?.headers.get('idempotency-key'));
  });

  it('uses the caller’s key', async () => {
    const { fetch, seen } = scripted(event);
    await createClient({ baseUrl: 'http://api.test', fetch }).events.create(
      { type: 'webinar', title: 'x' },
      { idempotencyKey: 'order-42' },
    );
    expect(seen[0]?.headers.get('idempotency-key')).toBe('order-42');
  });
});

describe('timeouts and aborts', () => {
  const hanging: typeof fetch = (_url, init) =>
    new Promise((_resolve, reject) =>
      init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
    );

  it('throws GathercastTimeoutError after the per-call timeout', async () => {
    const gc = createClient({ baseUrl: 'http://api.test', fetch: hanging, maxRetries: 0 });
    const started = Date.now();
    await expect(gc.events.list(undefined, { timeout: 50 })).rejects.toBeInstanceOf(GathercastTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('stops at once, without retrying, when the caller’s signal aborts', async () => {
    let calls = 0;
    const gc = createClient({
      baseUrl: 'http://api.test',
      fetch: (url, init) => {
        calls++;
        return hanging(url, init);
      },
    });
    const controller = new AbortController();
    const call = gc.events.list(undefined, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(GathercastAbortError);
    expect(calls).toBe(1);
  });
});

describe('headers and metadata', () => {
  it('names the SDK in User-Agent, and takes workspace and headers per call', async () => {
    const { fetch, seen } = scripted(page);
    const gc = createClient({ baseUrl: 'http://api.test', fetch, workspaceId: 'w-client' });
    await gc.events.list(undefined, { workspaceId: 'w-call', headers: { 'x-trace': 't1' } });
    expect(seen[0]?.headers.get('user-agent')).toBe(`gathercast-sdk-js/${VERSION}`);
    expect(seen[0]?.headers.get('x-workspace-id')).toBe('w-call');
    expect(seen[0]?.headers.get('x-trace')).toBe('t1');
  });

  it('gives the success metadata with .withResponse(), and the plain body otherwise', async () => {
    const headers = {
      'x-request-id': 'req-9',
      'ratelimit-limit': '100',
      'ratelimit-remaining': '99',
      'ratelimit-reset': '60',
    };
    const { fetch } = scripted({ ...page, headers });
    const gc = createClient({ baseUrl: 'http://api.test', fetch });
    expect(await gc.events.list()).toEqual(page.body);
    const res = await gc.events.list().withResponse();
    expect(res).toMatchObject({
      data: page.body,
      status: 200,
      requestId: 'req-9',
      rateLimit: { limit: 100, remaining: 99, reset: 60 },
      idempotencyKey: undefined,
      replayed: false,
      retries: 0,
    });
  });

  it('reads the combined RateLimit header too', async () => {
    const { fetch } = scripted({ ...page, headers: { ratelimit: 'limit=10, remaining=3, reset=5' } });
    const res = await createClient({ baseUrl: 'http://api.test', fetch }).events.list().withResponse();
    expect(res.rateLimit).toEqual({ limit: 10, remaining: 3, reset: 5 });
  });
});

describe('cursor lists', () => {
  const pages = (query: URLSearchParams) => {
    const cursor = query.get('cursor');
    if (!cursor) return { deliveries: [{ id: 'd1' }, { id: 'd2' }], nextCursor: 'c2' };
    if (cursor === 'c2') return { deliveries: [{ id: 'd3' }], nextCursor: 'c3' };
    return { deliveries: [{ id: 'd4' }], nextCursor: null };
  };
  const paged = () => {
    const urls: string[] = [];
    const fetch: typeof globalThis.fetch = async (url) => {
      urls.push(String(url));
      return new Response(JSON.stringify(pages(new URL(String(url)).searchParams)), {
        headers: { 'content-type': 'application/json' },
      });
    };
    return { gc: createClient({ baseUrl: 'http://api.test', fetch }), urls };
  };

  it('iterates every item across pages with for await, keeping the query', async () => {
    const { gc, urls } = paged();
    const ids: string[] = [];
    for await (const delivery of gc.webhooks.listDeliveries('w1', { limit: 2 })) ids.push(delivery.id);
    expect(ids).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(urls[1]).toBe('http://api.test/v1/webhooks/w1/deliveries?limit=2&cursor=c2');
  });

  it('collects up to a limit, fetching only the pages it needs', async () => {
    const { gc, urls } = paged();
    const items = await gc.webhooks.listDeliveries('w1').collect({ limit: 3 });
    expect(items.map((d) => d.id)).toEqual(['d1', 'd2', 'd3']);
    expect(urls).toHaveLength(2);
  });

  it('still answers one page when awaited', async () => {
    const { gc } = paged();
    expect(await gc.webhooks.listDeliveries('w1')).toMatchObject({ nextCursor: 'c2' });
  });
});

describe('errors', () => {
  it('throws GathercastConflictError for a 409 problem', async () => {
    const { fetch } = scripted({ status: 409, body: { type: 't', code: 'invalid_state', detail: 'live' } });
    const err = await createClient({ baseUrl: 'http://api.test', fetch })
      .events.start('e1')
      .catch((e) => e);
    expect(err).toBeInstanceOf(GathercastConflictError);
  });
});
