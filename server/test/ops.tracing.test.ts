import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeTracing, tracingRequested } from '../src/lib/tracing';
import { createWorkspace } from './support/fixtures';
import { useTestServer } from './support/hooks';
import { type OtlpCollector, spanAttribute, startCollector } from './support/otel-collector';
import { startTestServer, type TestServer } from './support/server';
import { eventually } from './support/wait';

describe('OpenTelemetry traces', () => {
  it('are off without OTEL_* variables: no tracer, pg untouched', async () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_TRACES_EXPORTER: 'none' })).toBe(
      false,
    );
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://x/v1/traces' })).toBe(true);
    const t = await startTestServer();
    try {
      expect(activeTracing()).toBeUndefined();
      expect((pg.Client.prototype.query as { name: string }).name).not.toBe('tracedQuery');
    } finally {
      await t.close();
    }
  });

  describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
    let collector: OtlpCollector;
    let t: TestServer;
    const saved = { ...process.env };
    // Registered before the server's hook: the variables are set before it starts, and restored (the
    // collector closed) after it has closed.
    beforeAll(async () => {
      collector = await startCollector();
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
      process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
      process.env.OTEL_SERVICE_NAME = 'gathercast-test';
    });
    afterAll(async () => {
      process.env = saved;
      await collector.close();
    });
    useTestServer({}, (started) => {
      t = started;
    });

    it("exports one request's server span (named by route template, continuing the caller's traceparent) with its pg spans", async () => {
      const ws = await createWorkspace(t.databaseUrl);
      const traceId = randomBytes(16).toString('hex');
      const callerSpan = randomBytes(8).toString('hex');
      const res = await fetch(`${t.url}/v1/events?limit=5`, {
        headers: { 'x-api-key': ws.apiKey, traceparent: `00-${traceId}-${callerSpan}-01` },
      });
      expect(res.status).toBe(200);
      const ofTrace = () => collector.spans.filter((s) => s.traceId === traceId);
      await eventually(
        async () => ofTrace(),
        (spans) =>
          spans.some((s) => s.name.startsWith('pg ')) && spans.some((s) => s.parentSpanId === callerSpan),
      );
      const server = ofTrace().find((s) => s.parentSpanId === callerSpan);
      expect(server, `the server span among ${JSON.stringify(ofTrace().map((s) => s.name))}`).toBeDefined();
      expect(server!.name).toBe('GET /v1/events');
      expect(spanAttribute(server!, 'http.route')).toBe('/v1/events');
      expect(spanAttribute(server!, 'http.response.status_code')).toBe(200);
      const queries = ofTrace().filter((s) => s.name.startsWith('pg '));
      expect(queries.length).toBeGreaterThan(0);
      for (const q of queries) {
        expect(q.parentSpanId).toBe(server!.spanId);
        expect(String(spanAttribute(q, 'db.query.text'))).not.toContain(ws.apiKey);
      }
    });
  });
});
