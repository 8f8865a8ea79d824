import { createClient, type GathercastClient } from '@gathercast/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server';
import { createTestDatabase } from './support/database';
import { eventIn } from './support/events';
import { createWorkspace } from './support/fixtures';
import { LiveClient, startReplica, tokenFor } from './support/live';
import { type OtlpCollector, type OtlpSpan, spanAttribute, startCollector } from './support/otel-collector';
import { eventually } from './support/wait';

/*
 * A join must cost the same whatever the audience: the messages the gateway sends for it and the
 * statements it runs on the database are counted with 20 and with 200 viewers present and must be
 * equal (none once the event's first joiner read its position). Statements are counted as the pg spans of the join's trace (tracing on, to a collector here).
 */

let collector: OtlpCollector;
let server: RunningServer;
let gc: GathercastClient;
const saved = { ...process.env };
beforeAll(async () => {
  collector = await startCollector();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
  const databaseUrl = await createTestDatabase();
  // No periodic audience broadcast during the test: only what a join itself causes is counted.
  server = await startReplica(
    databaseUrl,
    {},
    { presence: { heartbeatMs: 60_000, ttlMs: 120_000, audienceMs: 3_600_000 } },
  );
  gc = createClient({
    baseUrl: server.url,
    apiKey: (await createWorkspace(databaseUrl)).apiKey,
    maxRetries: 0,
  });
});
afterAll(async () => {
  await server.close();
  process.env = saved;
  await collector.close();
});

/** A viewer in, up to its first audience message (the last thing its join sends it). */
async function viewer(eventId: string) {
  const client = await LiveClient.join(
    server,
    await tokenFor(server, eventId, { role: 'viewer', anonymous: true }),
  );
  await client.next('audience');
  return client;
}

const total = (clients: LiveClient[]) => clients.reduce((n, c) => n + c.messages.length, 0);

/** The pg statements of the live.join span that started between `from` and `to` (ms since the epoch). */
async function statementsOfJoin(from: number, to: number): Promise<string[]> {
  const inWindow = (s: OtlpSpan) => {
    const ms = Number(BigInt(s.startTimeUnixNano) / 1_000_000n);
    return ms >= from && ms <= to;
  };
  const join = await eventually(
    async () => collector.spans.find((s) => s.name === 'live.join' && inWindow(s)),
    (span) => span !== undefined,
    15_000,
  );
  expect(join, 'the join span exported').toBeDefined();
  // The join span is exported when it ends, after its statements' spans.
  return collector.spans
    .filter((s) => s.traceId === join!.traceId && s.name.startsWith('pg '))
    .map((s) => String(spanAttribute(s, 'db.query.text') ?? s.name))
    .map((text) => text.replace(/\s+/g, ' ').trim())
    .sort();
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
    const from = Date.now();
    const host = await LiveClient.join(server, await tokenFor(server, event.id, { role: 'host' }));
    await host.next('audience');
    const first = await statementsOfJoin(from, Date.now());
    const crowd: LiveClient[] = [];
    const fill = async (n: number) => {
      while (crowd.length < n)
        crowd.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(25, n - crowd.length) }, () => viewer(event.id)),
          )),
        );
    };
    await fill(20);
    const small = await measureJoin(event.id, host, crowd);
    await fill(200);
    const large = await measureJoin(event.id, host, crowd);
    expect(small.toOthers).toBe(0);
    expect(small.toJoiner).toBe(2); // welcome, audience
    // The event's first joiner in this process reads its stream position; the process then keeps it
    // from the messages it delivers, so later joins read nothing before their welcome (the event state
    // and the snapshot are shared, the presence write goes with the join group, outside the join's trace).
    expect(first).toContain('select seq from live_stream where event_id = $1');
    expect(small.statements).toEqual([]);
    expect(large).toEqual(small);
    await Promise.all([host, ...crowd].map((c) => c.close()));
  }, 120_000);
});
