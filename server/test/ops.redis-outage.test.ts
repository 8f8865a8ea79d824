import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createClient,
  type GathercastClient,
  LiveConnection,
  type WebSocketConstructor,
} from '@gathercast/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { waitUntil } from './support/budgets';
import { createWorkspace, type WorkspaceFixture } from './support/fixtures';
import { freePort } from './support/ports';
import { RedisServer } from './support/redis-server';
import { startTestServer, type TestServer } from './support/server';

/**
 * A server on a Redis this test started itself (never the machine's), which the test stops mid-run and
 * starts again on the same port and data directory, as a Redis restart or a failover looks to clients.
 * REST must keep serving through it, rate limits count in the process, /readyz reports Redis as
 * degraded without taking the process out of rotation, and the live plane comes back by itself.
 */
let redisPort: number;
let redisDir: string;
let redis: RedisServer;
let t: TestServer;
let owner: WorkspaceFixture;
let gc: GathercastClient;
const chats: string[] = [];
let host: LiveConnection;

const startRedis = () =>
  RedisServer.start(redisPort, ['--save', '3600 1', '--dir', redisDir, '--appendonly', 'no']);
const readiness = async () => {
  const res = await fetch(`${t.url}/readyz`);
  return {
    status: res.status,
    body: (await res.json()) as { status: string; checks: Record<string, string> },
  };
};
const ws = {
  WebSocket: WebSocket as unknown as WebSocketConstructor,
  reconnect: { initialDelayMs: 100, maxDelayMs: 500 },
};

beforeAll(async () => {
  redisPort = await freePort();
  redisDir = mkdtempSync(path.join(tmpdir(), 'gc-redis-outage-'));
  redis = await startRedis();
  t = await startTestServer({ REDIS_URL: redis.url });
  owner = await createWorkspace(t.databaseUrl);
  gc = t.client({ apiKey: owner.apiKey });
  const event = await gc.events.create({
    type: 'webinar',
    title: 'Outage',
    visibility: 'public',
    phases: [{ modality: 'broadcast', featureSet: ['chat'] }],
  });
  await gc.events.publish(event.id);
  await gc.events.start(event.id);
  const tokenUrl = async (auth: { sessionToken?: string }) =>
    (await createClient({ baseUrl: t.url, ...auth }).gateway.token({ eventId: event.id })).url;
  const viewer = await LiveConnection.open(await tokenUrl({}), ws);
  viewer.on('chat.message', (m) => chats.push(m.text));
  host = await LiveConnection.open(await tokenUrl({ sessionToken: owner.sessionToken }), ws);
  host.send({ type: 'chat.send', text: 'before' });
  await waitUntil(() => chats.includes('before'), 'the viewer to get a message before the outage');
  await redis.stop();
}, 120_000);

afterAll(async () => {
  host?.close();
  await t?.close();
  await redis?.stop();
  rmSync(redisDir, { recursive: true, force: true });
});

describe('while Redis is down', () => {
  it('answers REST calls: creates, reads and lists events', async () => {
    for (let i = 0; i < 5; i++) {
      const created = await gc.events.create({ type: 'webinar', title: `During ${i}` });
      expect((await gc.events.retrieve(created.id)).title).toBe(`During ${i}`);
    }
    expect((await gc.events.list()).events.length).toBeGreaterThanOrEqual(6);
  });

  it('reports Redis as degraded in /readyz and stays ready (200) for what it serves', async () => {
    await waitUntil(async () => (await readiness()).body.checks.redis === 'degraded', 'readiness to notice');
    const { status, body } = await readiness();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'degraded',
      checks: { database: 'ok', webhook_worker: 'ok', redis: 'degraded' },
    });
  });

  it('counts rate limits in the process with the same limit: ten failed logins, then 429', async () => {
    const login = (password: string) =>
      fetch(`${t.url}/v1/accounts/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: owner.email, password }),
      });
    for (let i = 0; i < 10; i++) expect((await login('wrong-password')).status).toBe(401);
    const refused = await login('wrong-password');
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe('rate_limited');
  });
});

describe('once Redis is back', () => {
  it('reports Redis ok again and carries live messages again, without the clients doing anything', async () => {
    redis = await startRedis();
    await waitUntil(
      async () => (await readiness()).body.checks.redis === 'ok',
      'readiness to see Redis back',
    );
    expect((await readiness()).body.status).toBe('ready');
    // The first sends may land while the live plane's connections are still coming back: send until one arrives.
    let n = 0;
    await waitUntil(() => {
      if (chats.some((c) => c.startsWith('after '))) return true;
      try {
        if (n % 10 === 0) host.send({ type: 'chat.send', text: `after ${n}` });
      } catch {}
      n++;
      return false;
    }, 'a live message after the outage');
  });
});
