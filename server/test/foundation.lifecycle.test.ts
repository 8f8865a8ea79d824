import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { repeatedRaceBudgetMs, waitUntil } from './support/budgets';
import { startTestServer } from './support/server';
import { slowLogin } from './support/slow-request';

describe('health and readiness', () => {
  it('answers /healthz and /readyz with 200 while the database is reachable', async () => {
    const t = await startTestServer();
    try {
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${t.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok' } });
    } finally {
      await t.close();
    }
  });

  it('answers /readyz with 503 problem+json when the database is gone', async () => {
    const t = await startTestServer();
    try {
      await t.server.ctx.orm.close(true);
      const res = await fetch(`${t.url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    } finally {
      await t.close().catch(() => {});
    }
  });
});

describe('unexpected errors', () => {
  it('answers 500 internal_error without internals and logs the error with the request id', async () => {
    const t = await startTestServer();
    try {
      const admin = new pg.Client({ connectionString: t.databaseUrl });
      await admin.connect();
      await admin.query('drop table api_key cascade');
      await admin.end();
      const res = await fetch(`${t.url}/v1/events`, { headers: { 'x-api-key': 'gck_anything', 'x-request-id': 'boom-1' } });
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body.code).toBe('internal_error');
      expect(JSON.stringify(body)).not.toMatch(/api_key|relation|select|stack/i);
      expect(body.detail).toContain('boom-1');
      const logged = t.logs().find((l) => l.msg === 'unhandled error');
      expect(logged?.requestId).toBe('boom-1');
    } finally {
      await t.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('finishes an in-flight request, refuses new connections, then closes the database', async () => {
    const t = await startTestServer();
    const { port } = new URL(t.url);
    // A request the server has taken up, whose body is still arriving when shutdown starts.
    const inFlight = slowLogin(port);
    await inFlight.accepted;
    const closing = t.close();
    const refused = () =>
      fetch(`${t.url}/healthz`).then(
        () => false,
        () => true,
      );
    await waitUntil(refused, 'new connections refused while a request is in flight');
    inFlight.finish();
    // The request ran to its real answer (not a dropped connection, not a 500).
    const answer = await inFlight.answer;
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(JSON.parse(answer.body).code).not.toBe('internal_error');
    await closing;
    expect(await t.server.ctx.orm.isConnected()).toBe(false);
  }, repeatedRaceBudgetMs);
});
