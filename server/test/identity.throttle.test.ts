import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { type RunningServer, startServer } from '../src/server';
import { failure, signUp, uniqueEmail } from './support/accounts';
import { useTestServer } from './support/hooks';
import { freePort } from './support/ports';
import { testRedisUrl } from './support/redis';
import type { TestServer } from './support/server';

/** TRUST_PROXY lets each test speak from its own client address (X-Forwarded-For). */
const addressOf = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;

async function secondProcess(t: TestServer, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: t.databaseUrl,
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'silent',
    ...env,
  });
  return startServer(config, createLogger('silent'));
}

function loginVia(baseUrl: string, email: string, password: string, address: string) {
  return fetch(`${baseUrl}/v1/accounts/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password }),
  });
}

for (const store of ['PostgreSQL', 'Redis'] as const) {
  describe(`login throttle (${store})`, () => {
    const env: Record<string, string> = {
      TRUST_PROXY: 'true',
      ...(store === 'Redis' ? { REDIS_URL: testRedisUrl() } : {}),
    };
    let t: TestServer;
    useTestServer(env, (started) => {
      t = started;
    });

    it('refuses the 11th attempt for an email after 10 failures with 429 rate_limited and Retry-After', async () => {
      const person = await signUp(t);
      for (let i = 0; i < 10; i++) {
        const res = await loginVia(t.url, person.email, 'wrong-password', addressOf());
        expect(res.status).toBe(401);
      }
      const res = await loginVia(t.url, person.email, person.password, addressOf());
      expect(res.status).toBe(429);
      expect((await res.json()).code).toBe('rate_limited');
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    });

    it('refuses a client address after 10 failures across different emails', async () => {
      const address = addressOf();
      for (let i = 0; i < 10; i++) await loginVia(t.url, uniqueEmail(), 'wrong-password', address);
      const person = await signUp(t);
      const res = await loginVia(t.url, person.email, person.password, address);
      expect(res.status).toBe(429);
      expect((await res.json()).code).toBe('rate_limited');
    });

    it('does not count successful logins', async () => {
      const person = await signUp(t);
      const address = addressOf();
      for (let i = 0; i < 12; i++)
        expect((await loginVia(t.url, person.email, person.password, address)).status).toBe(200);
    });

    it('shares the counters between server processes', async () => {
      const other = await secondProcess(t, env);
      try {
        const person = await signUp(t);
        for (let i = 0; i < 5; i++) await loginVia(t.url, person.email, 'wrong-password', addressOf());
        for (let i = 0; i < 5; i++) await loginVia(other.url, person.email, 'wrong-password', addressOf());
        const err = await failure(
          t.client().accounts.login({ email: person.email, password: person.password }),
        );
        expect([err.status, err.code]).toEqual([429, 'rate_limited']);
        expect(err.retryAfter).toBeGreaterThan(0);
      } finally {
        await other.close();
      }
    });
  });
}
