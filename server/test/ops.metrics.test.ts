import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBudgetMs, repeatedRaceBudgetMs } from './support/budgets';
import { createWorkspace } from './support/fixtures';
import { useTestServer } from './support/hooks';
import { Receiver } from './support/receiver';
import { startTestServer, type TestServer } from './support/server';
import { eventually } from './support/wait';
import { workspaceWithEndpointAt } from './support/webhook-endpoints';

const platformKey = 'test-platform-key';

async function scrape(t: TestServer): Promise<string> {
  const res = await fetch(`${t.url}/metrics`, { headers: { 'x-platform-key': platformKey } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** The value of one series (name + exact label text), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * How much one series grew between two scrapes: the process has one registry, which other servers of
 * the same test process add to, so a test counts the change, not the value.
 */
const growth = (before: string, after: string, series: string) =>
  (sample(after, series) ?? 0) - (sample(before, series) ?? 0);

describe('GET /metrics', () => {
  let t: TestServer;
  let rx: Receiver;
  useTestServer({}, (started) => {
    t = started;
  });
  beforeAll(async () => {
    rx = await Receiver.start();
  });
  afterAll(() => rx?.close());

  it('refuses callers without the platform key with 401 problem+json, also workspace API keys', async () => {
    const ws = await createWorkspace(t.databaseUrl);
    for (const headers of [{}, { 'x-api-key': ws.apiKey }, { 'x-platform-key': 'wrong' }] as Record<
      string,
      string
    >[]) {
      const res = await fetch(`${t.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect((await res.json()).code).toBe('unauthorized');
    }
  });

  it('accepts the platform key as a Bearer token (Prometheus scrape_config.authorization)', async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${platformKey}` } });
    expect(res.status).toBe(200);
  });

  it('counts HTTP requests by route template, method and status, never by raw path', async () => {
    const ws = await createWorkspace(t.databaseUrl);
    const gc = t.client({ apiKey: ws.apiKey });
    const before = await scrape(t);
    const event = await gc.events.create({
      type: 'webinar',
      title: 'Metered',
      phases: [{ modality: 'broadcast' }],
    });
    await gc.events.retrieve(event.id);
    await gc.events.retrieve(event.id);
    await fetch(`${t.url}/v1/events/00000000-0000-4000-8000-000000000000`, {
      headers: { 'x-api-key': ws.apiKey },
    });
    const after = await scrape(t);
    const added = (series: string) => growth(before, after, series);
    const count = 'gathercast_http_request_duration_seconds_count';
    expect(added(`${count}{method="GET",route="/v1/events/:id",status="200"}`)).toBe(2);
    expect(added(`${count}{method="GET",route="/v1/events/:id",status="404"}`)).toBe(1);
    expect(added(`${count}{method="POST",route="/v1/events",status="201"}`)).toBe(1);
    expect(after).not.toContain(event.id);
  });

  it('reports unknown paths under one route label, "unmatched"', async () => {
    await fetch(`${t.url}/no/such/path/12345`);
    const text = await scrape(t);
    expect(
      sample(
        text,
        'gathercast_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/no/such/path');
  });

  it('reports database pools, process figures, the build and the webhook queue', async () => {
    const text = await scrape(t);
    for (const pool of ['api', 'orm', 'webhook_worker'])
      expect(
        sample(text, `gathercast_db_pool_connections{pool="${pool}",state="total"}`),
      ).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    const buildInfo = text.split('\n').find((line) => line.startsWith('gathercast_build_info{'));
    expect(buildInfo).toMatch(/^gathercast_build_info\{version="[^"]+",commit="[^"]+",node="v[\d.]+"\} 1$/);
    expect(buildInfo).toContain(`node="${process.version}"`);
    expect(sample(text, 'gathercast_webhook_queue_depth')).toBeGreaterThanOrEqual(0);
  });

  it('counts webhook attempts by outcome and the commit-to-delivery latency of delivered ones', async () => {
    const before = await scrape(t);
    const { gc } = await workspaceWithEndpointAt(t, rx, 'metrics', ['event.published']);
    const event = await gc.events.create({
      type: 'webinar',
      title: 'Hooked',
      phases: [{ modality: 'broadcast' }],
    });
    await gc.events.publish(event.id);
    await rx.waitFor(() => rx.to('metrics').length === 1, eventBudgetMs, 'the delivery');
    // The attempt is recorded just after the receiver answered.
    const succeeded = 'gathercast_webhook_attempts_total{outcome="succeeded"}';
    const after = await eventually(
      () => scrape(t),
      (text) => growth(before, text, succeeded) > 0,
    );
    expect(growth(before, after, succeeded)).toBe(1);
    expect(growth(before, after, 'gathercast_webhook_delivery_latency_seconds_count')).toBe(1);
  });

  it('counts rate-limit refusals by limit', async () => {
    const ws = await createWorkspace(t.databaseUrl);
    const email = `throttled-${Date.now()}@example.test`;
    let refused = 0;
    for (let i = 0; i < 12 && !refused; i++) {
      const res = await fetch(`${t.url}/v1/accounts/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: `wrong-${ws.workspaceId}` }),
      });
      if (res.status === 429) refused++;
    }
    expect(refused).toBe(1);
    expect(await scrape(t)).toMatch(/^gathercast_rate_limit_refusals_total\{limit="[a-z_]+"\} [1-9]/m);
  });
});

describe('METRICS_PORT', () => {
  it(
    'serves GET /metrics without a key on a separate loopback listener, and only that',
    async () => {
      const t = await startTestServer({ METRICS_PORT: '0', PLATFORM_KEY: undefined });
      try {
        const port = t.server.metricsPort;
        expect(port).toBeGreaterThan(0);
        const res = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('gathercast_http_request_duration_seconds');
        expect((await fetch(`http://127.0.0.1:${port}/v1/events`)).status).toBe(404);
        // Without a platform key the API port does not serve metrics at all.
        expect((await fetch(`${t.url}/metrics`)).status).toBe(404);
      } finally {
        await t.close();
      }
    },
    repeatedRaceBudgetMs,
  );
});
