import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type GathercastClient } from '@gathercast/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server';
import { createTestDatabase } from './support/database';
import { eventIn } from './support/events';
import { createWorkspace } from './support/fixtures';
import { LiveClient, startReplica, tokenFor } from './support/live';

/*
 * A join must cost the same whatever the audience: the messages the gateway sends for it and the
 * statements it runs on the database are counted with 20 and with 200 viewers present and must be
 * equal. Statements are counted as the pg spans of the join's trace (tracing on, to a collector here).
 */

interface Span {
  traceId: string;
  name: string;
  startTimeUnixNano: string;
  attributes?: { key: string; value: { stringValue?: string } }[];
}

async function startCollector() {
  const spans: Span[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && String(req.headers['content-type']).includes('json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, spans, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let collector: Awaited<ReturnType<typeof startCollector>>;
let server: RunningServer;
let gc: GathercastClient;
const saved = { ...process.env };
beforeAll(async () => {
  collector = await startCollector();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
  const databaseUrl = await createTestDatabase();
  // No periodic audience broadcast during the test: only what a join itself causes is counted.
  server = await startReplica(databaseUrl, {}, { presence: { heartbeatMs: 60_000, ttlMs: 120_000, audienceMs: 3_600_000 } });
  gc = createClient({ baseUrl: server.url, apiKey: (await createWorkspace(databaseUrl)).apiKey, maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
  process.env = saved;
  await collector.close();
});

/** A viewer in, up to its first audience message (the last thing its join sends it). */
async function viewer(eventId: string) {
  const client = await LiveClient.join(server, await tokenFor(server, eventId, { role: 'viewer', anonymous: true }));
  await client.next('audience');
  return client;
}

const total = (clients: LiveClient[]) => clients.reduce((n, c) => n + c.messages.length, 0);

/** The pg statements of the live.join span that started between `from` and `to` (ms since the epoch). */
async function statementsOfJoin(from: number, to: number): Promise<string[]> {
  const inWindow = (s: Span) => {
    const ms = Number(BigInt(s.startTimeUnixNano) / 1_000_000n);
    return ms >= from && ms <= to;
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    const join = collector.spans.find((s) => s.name === 'live.join' && inWindow(s));
    if (join) {
      // The join span is exported when it ends, after its statements' spans.
      return collector.spans
        .filter((s) => s.traceId === join.traceId && s.name.startsWith('pg '))
        .map((s) => s.attributes?.find((a) => a.key === 'db.query.text')?.value.stringValue ?? s.name)
        .map((text) => text.replace(/\s+/g, ' ').trim())
        .sort();
    }
    if (Date.now() > deadline) throw new Error('the join span was not exported');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * One viewer joins an audience already there; a host chat afterwards marks, on every socket, the
 * end of what the join could have caused (each socket receives in order).
 */
async function measureJoin(eventId: string, host: LiveClient, crowd: LiveClient[]) {
  const others = [host, ...crowd];
  const before = total(others);
  const from = Date.now();
  const joiner = await viewer(eventId);
  const to = Date.now();
  const marker = `after join ${crowd.length}`;
  host.send({ type: 'chat.send', text: marker });
  await Promise.all(others.map((c) => c.next('chat.message', (m) => m.text === marker)));
  const toJoiner = joiner.messages.findIndex((m) => m.type === 'audience') + 1;
  crowd.push(joiner);
  return {
    toJoiner,
    toOthers: total(others) - before - others.length,
    statements: await statementsOfJoin(from, to),
  };
}

describe('live gateway: a join costs the same at any audience size', () => {
  it('sends and reads the same for one more viewer with 20 and with 200 viewers present', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
    const host = await LiveClient.join(server, await tokenFor(server, event.id, { role: 'host' }));
    await host.next('audience');
    const crowd: LiveClient[] = [];
    const fill = async (n: number) => {
      while (crowd.length < n)
        crowd.push(...(await Promise.all(Array.from({ length: Math.min(25, n - crowd.length) }, () => viewer(event.id)))));
    };
    await fill(20);
    const small = await measureJoin(event.id, host, crowd);
    await fill(200);
    const large = await measureJoin(event.id, host, crowd);
    expect(small.toOthers).toBe(0);
    expect(small.toJoiner).toBe(2); // welcome, audience
    // The hot path: the stream position and the presence write; the event state and the snapshot are shared.
    expect(small.statements.length).toBeGreaterThan(0);
    expect(large).toEqual(small);
    await Promise.all([host, ...crowd].map((c) => c.close()));
  }, 120_000);
});
