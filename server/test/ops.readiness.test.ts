import { describe, expect, it } from 'vitest';
import { createWorkspace } from './support/fixtures';
import { useTestServer } from './support/hooks';
import { testRedisUrl } from './support/redis';
import { startTestServer, type TestServer } from './support/server';

describe('/readyz', () => {
  it('answers 200 naming each part it checked: database, webhook worker, Redis (disabled without REDIS_URL)', async () => {
    const t = await startTestServer();
    try {
      const res = await fetch(`${t.url}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        status: 'ready',
        checks: { database: 'ok', webhook_worker: 'ok', redis: 'disabled' },
      });
    } finally {
      await t.close();
    }
  });

  it('checks Redis when REDIS_URL is set', async () => {
    const t = await startTestServer({ REDIS_URL: testRedisUrl() });
    try {
      const body = await (await fetch(`${t.url}/readyz`)).json();
      expect(body.checks.redis).toBe('ok');
    } finally {
      await t.close();
    }
  });

  it('reports the webhook worker as disabled, not failing, with WEBHOOK_WORKER=false', async () => {
    const previous = process.env.WEBHOOK_WORKER;
    process.env.WEBHOOK_WORKER = 'false';
    const t = await startTestServer().finally(() => {
      if (previous === undefined) delete process.env.WEBHOOK_WORKER;
      else process.env.WEBHOOK_WORKER = previous;
    });
    try {
      const res = await fetch(`${t.url}/readyz`);
      expect(res.status).toBe(200);
      expect((await res.json()).checks.webhook_worker).toBe('disabled');
    } finally {
      await t.close();
    }
  });

  it('answers 503 service_unavailable problem+json naming the webhook worker when it stopped', async () => {
    const t = await startTestServer();
    try {
      await t.server.webhooks.worker.stop();
      const res = await fetch(`${t.url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      const body = await res.json();
      expect(body).toMatchObject({
        code: 'service_unavailable',
        checks: { database: 'ok', webhook_worker: 'failing' },
      });
      expect(body.detail).toContain('webhook_worker');
      expect(body.detail).not.toContain('database');
    } finally {
      await t.close().catch(() => {});
    }
  });

  it('answers 503 naming the database when it is gone', async () => {
    const t = await startTestServer();
    try {
      await t.server.ctx.orm.close(true);
      const body = await (await fetch(`${t.url}/readyz`)).json();
      expect(body).toMatchObject({ code: 'service_unavailable', checks: { database: 'failing' } });
      expect(body.detail).toContain('database');
    } finally {
      await t.close().catch(() => {});
    }
  });
});

describe('/version and request logs', () => {
  let t: TestServer;
  useTestServer({ TRUST_PROXY: 'true' }, (started) => {
    t = started;
  });

  it('GET /version names the version, the commit and the Node.js version', async () => {
    const body = await (await fetch(`${t.url}/version`)).json();
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(typeof body.commit).toBe('string');
    expect(body.node).toBe(process.version);
  });

  it('logs the problem code, the workspace id, the API key id (never the key) and the forwarded caller address', async () => {
    const ws = await createWorkspace(t.databaseUrl);
    const res = await fetch(`${t.url}/v1/events/00000000-0000-4000-8000-000000000000`, {
      headers: { 'x-api-key': ws.apiKey, 'x-forwarded-for': '203.0.113.7', 'x-request-id': 'log-fields-1' },
    });
    expect(res.status).toBe(404);
    const line = t.logs().find((l) => l.requestId === 'log-fields-1' && l.msg === 'request');
    expect(line).toMatchObject({
      status: 404,
      code: 'not_found',
      workspaceId: ws.workspaceId,
      credential: { kind: 'api_key', id: ws.apiKeyId },
      ip: '203.0.113.7',
    });
    expect(t.logText()).not.toContain(ws.apiKey);
  });

  it('logs the code of a request refused before any credential was found, and no credential', async () => {
    const res = await fetch(`${t.url}/v1/events`, { headers: { 'x-request-id': 'log-fields-2' } });
    expect(res.status).toBe(401);
    const line = t.logs().find((l) => l.requestId === 'log-fields-2' && l.msg === 'request');
    expect(line).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(line?.credential).toBeUndefined();
  });
});
