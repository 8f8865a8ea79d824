import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startServer } from '../src/server';
import { apiKeyOf, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import { freePort } from './support/ports';
import { testRedisUrl } from './support/redis';
import type { TestServer } from './support/server';

/** Budgets small enough to exhaust in a test, in a window long enough that it never refills during one. */
const budgets = {
  API_LIMIT_WINDOW_SECONDS: '600',
  API_LIMIT_KEY_READS: '5',
  API_LIMIT_KEY_WRITES: '3',
  API_LIMIT_WORKSPACE_READS: '8',
  API_LIMIT_WORKSPACE_WRITES: '100',
};

const get = (base: string, key: string, path = '/v1/events') =>
  fetch(`${base}${path}`, { headers: { 'x-api-key': key } });

async function spend(base: string, key: string, n: number) {
  for (let i = 0; i < n; i++) expect((await get(base, key)).status).toBe(200);
}

for (const store of ['PostgreSQL', 'Redis'] as const) {
  describe(`per-key and per-workspace limits (${store})`, () => {
    const env = { ...budgets, ...(store === 'Redis' ? { REDIS_URL: testRedisUrl() } : {}) };
    let t: TestServer;
    useTestServer(env, (started) => {
      t = started;
    });

    it('sends RateLimit-Limit, -Remaining and -Reset on every answer, errors included', async () => {
      const key = await apiKeyOf(await signUp(t));
      const ok = await get(t.url, key);
      expect(ok.headers.get('ratelimit-limit')).toBe('5');
      expect(ok.headers.get('ratelimit-remaining')).toBe('4');
      expect(Number(ok.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      const missing = await get(t.url, key, '/v1/events/00000000-0000-4000-8000-000000000000');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('ratelimit-remaining')).toBe('3');
    });

    it('answers 429 rate_limited with Retry-After once a key spent its read budget', async () => {
      const key = await apiKeyOf(await signUp(t));
      await spend(t.url, key, 5);
      const refused = await get(t.url, key);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect((await refused.json()).code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    });

    it('keeps writes on their own budget', async () => {
      const key = await apiKeyOf(await signUp(t));
      await spend(t.url, key, 5);
      const write = await fetch(`${t.url}/v1/events`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'webinar', title: 'Still allowed' }),
      });
      expect(write.status).toBe(201);
      expect(write.headers.get('ratelimit-limit')).toBe('3');
    });

    it('shares one workspace budget between its keys, and leaves other workspaces alone', async () => {
      const owner = await signUp(t);
      const [first, second] = [await apiKeyOf(owner), await apiKeyOf(owner)];
      await spend(t.url, first, 5);
      await spend(t.url, second, 3);
      expect((await get(t.url, second)).status).toBe(429);
      expect((await get(t.url, await apiKeyOf(await signUp(t, 'other')))).status).toBe(200);
    });

    it('counts a session as its own credential', async () => {
      const owner = await signUp(t);
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${t.url}/v1/workspaces/${owner.workspaceId}/members`, {
          headers: { authorization: `Bearer ${owner.sessionToken}` },
        });
        expect(res.status).toBe(200);
      }
      const res = await fetch(`${t.url}/v1/workspaces/${owner.workspaceId}/members`, {
        headers: { authorization: `Bearer ${owner.sessionToken}` },
      });
      expect(res.status).toBe(429);
    });

    it('shares the buckets between server processes', async () => {
      const port = await freePort();
      const config = loadConfig({
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: t.databaseUrl,
        LOG_LEVEL: 'silent',
        ...env,
      });
      const other = await startServer(config, createLogger('silent'));
      try {
        const key = await apiKeyOf(await signUp(t));
        await spend(t.url, key, 3);
        await spend(other.url, key, 2);
        expect((await get(t.url, key)).status).toBe(429);
      } finally {
        await other.close();
      }
    });
  });
}
