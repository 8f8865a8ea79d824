import {
  createClient,
  type GathercastClient,
  GathercastServerError,
  GathercastTimeoutError,
  VERSION,
} from '@gathercast/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventBudgetMs } from './support/budgets';
import { type FaultProxy, startFaultProxy } from './support/fault-proxy';
import { createWorkspace, type WorkspaceFixture, withDb } from './support/fixtures';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * The SDK against the real server through a loopback proxy that loses answers, fails, throttles and hangs:
 * what the SDK does by default (retries, one Idempotency-Key per call, timeouts) is what these prove.
 */
let t: TestServer;
let ws: WorkspaceFixture;
let proxy: FaultProxy;
let gc: GathercastClient;
useTestServer({}, async (started) => {
  t = started;
  ws = await createWorkspace(t.databaseUrl);
});

const begin = async (options: { timeout?: number; maxRetries?: number } = {}) => {
  proxy = await startFaultProxy(t.url);
  gc = createClient({ baseUrl: proxy.url, apiKey: ws.apiKey, ...options });
};
afterEach(() => proxy.close());

const eventsTitled = (title: string) =>
  withDb(t.databaseUrl, async (db) =>
    Number(
      (
        await db.query('select count(*) from event where workspace_id = $1 and title = $2', [
          ws.workspaceId,
          title,
        ])
      ).rows[0].count,
    ),
  );

describe('the SDK through a faulty network', () => {
  it('retries a POST whose answer was lost with the same Idempotency-Key, so exactly one event exists', async () => {
    await begin();
    proxy.plan('drop-response');
    const title = `lost-answer-${Date.now()}`;
    const res = await gc.events.create({ type: 'webinar', title }).withResponse();
    expect(res.status).toBe(201);
    expect(res.data.title).toBe(title);
    expect(res.retries).toBe(1);
    expect(res.replayed).toBe(true);
    expect(proxy.requests.map((r) => r.upstreamStatus)).toEqual([201, 201]);
    const keys = proxy.requests.map((r) => r.idempotencyKey);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(res.idempotencyKey).toBe(keys[0]);
    expect(await eventsTitled(title)).toBe(1);
  });

  it('sends the caller’s own Idempotency-Key on every attempt', async () => {
    await begin();
    proxy.plan('drop-response');
    const title = `own-key-${Date.now()}`;
    const idempotencyKey = `order-${Date.now()}`;
    await gc.events.create({ type: 'webinar', title }, { idempotencyKey });
    expect(proxy.requests.map((r) => r.idempotencyKey)).toEqual([idempotencyKey, idempotencyKey]);
    expect(await eventsTitled(title)).toBe(1);
  });

  it('retries a 503 and returns the next attempt’s answer', async () => {
    await begin();
    proxy.plan({ status: 503, body: { type: 't', code: 'service_unavailable', detail: 'restarting' } });
    const res = await gc.events.list({ limit: 1 }).withResponse();
    expect(res.status).toBe(200);
    expect(res.retries).toBe(1);
    expect(proxy.requests.map((r) => r.fault)).toEqual([expect.objectContaining({ status: 503 }), 'pass']);
  });

  it('waits for Retry-After of a 429 before retrying', async () => {
    await begin();
    proxy.plan({
      status: 429,
      headers: { 'retry-after': '1' },
      body: { type: 't', code: 'rate_limited', detail: 'slow down' },
    });
    const started = Date.now();
    const res = await gc.events.list({ limit: 1 }).withResponse();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(res.retries).toBe(1);
  });

  it('gives up after maxRetries and throws the last answer, having tried 1 + maxRetries times', async () => {
    await begin({ maxRetries: 2 });
    const unavailable = { status: 503, body: { type: 't', code: 'service_unavailable', detail: 'down' } };
    proxy.plan(unavailable, unavailable, unavailable);
    const err = await gc.events.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GathercastServerError);
    expect(err).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(proxy.requests).toHaveLength(3);
  });

  it('abandons an attempt that hangs past the timeout and throws GathercastTimeoutError', async () => {
    await begin({ timeout: 300, maxRetries: 0 });
    proxy.plan('hang');
    const started = Date.now();
    const err = await gc.events.list().catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(err).toBeInstanceOf(GathercastTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('retries an attempt that timed out: a per-call timeout, then the answer of the next attempt', async () => {
    await begin();
    proxy.plan('hang');
    const title = `timed-out-${Date.now()}`;
    const res = await gc.events.create({ type: 'webinar', title }, { timeout: 300 }).withResponse();
    expect(res.status).toBe(201);
    expect(res.retries).toBe(1);
    expect(await eventsTitled(title)).toBe(1);
  });

  it('names itself in User-Agent', async () => {
    await begin();
    await gc.events.list();
    expect(proxy.requests[0]?.userAgent).toBe(`gathercast-sdk-js/${VERSION}`);
  });
});

describe('a duplicate POST while the first is still in progress', () => {
  it('gets 409 with Retry-After: 1 from the server, which the SDK retries until the answer is replayed', async () => {
    await begin();
    const key = `in-progress-${Date.now()}`;
    const body = { type: 'webinar', title: key };
    const first = await gc.events.create(body, { idempotencyKey: key });
    const scope = `key:${ws.apiKeyId} ws:${ws.workspaceId} POST /v1/events`;
    // Make the first request look unfinished again, then finish it once the duplicate has been refused once.
    const answer = await withDb(
      t.databaseUrl,
      async (db) =>
        (
          await db.query(
            `update idempotency_record r set status = null, response_body = null from idempotency_record o
              where o.scope = r.scope and o.key = r.key and r.scope = $1 and r.key = $2
              returning o.status, o.response_body`,
            [scope, key],
          )
        ).rows[0],
    );
    // The server waits 5 s for the unfinished first request, then answers 409 + Retry-After: 1; the SDK waits
    // 1 s and retries. The first request "finishes" as soon as the 409 has gone by, so the retry is replayed.
    const call = gc.events.create(body, { idempotencyKey: key }).withResponse();
    await vi.waitFor(() => expect(proxy.requests[1]?.upstreamStatus).toBe(409), {
      timeout: eventBudgetMs,
      interval: 50,
    });
    await withDb(t.databaseUrl, (db) =>
      db.query(
        'update idempotency_record set status = $3, response_body = $4 where scope = $1 and key = $2',
        [scope, key, answer.status, answer.response_body],
      ),
    );
    const res = await call;
    expect(res.retries).toBeGreaterThanOrEqual(1);
    const refused = proxy.requests[1];
    expect([refused?.upstreamStatus, refused?.upstreamHeaders?.['retry-after']]).toEqual([409, '1']);
    expect(proxy.requests.at(-1)?.upstreamStatus).toBe(201);
    expect(res.replayed).toBe(true);
    expect(res.data.id).toBe(first.id);
    expect(await eventsTitled(key)).toBe(1);
  }, 30_000);
});
