import { describe, expect, it } from 'vitest';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

/*
 * The list's JSON is rendered by PostgreSQL, the single read's by the mapping in Node: both must print
 * every event byte for byte alike, whatever the stored values.
 */
let t: TestServer;
let apiKey: string;
/** Ids of the events created in beforeAll, oldest first. */
let ids: string[];

const metadataCases: Record<string, unknown>[] = [
  {},
  { description: 'Ünïcødé ✓ 😀 — “quotes” and 日本語', nested: { b: [1, 2.5, { c: null }], a: true } },
  { '10': 'integer-like keys', '2': 'come first in JavaScript', b: 'then', aa: 'the rest' },
  { 'quo"te\\back': 'line\nbreak\ttab\u0001control\u007f', empty: {}, list: [] },
  { big: 1e21, small: 1e-7, negative: -0.5, precise: 0.1, large: 12345678901234567000, zero: 0 },
  { deep: { deeper: { deepest: [[{}], [[]], 'x'] } } },
];

useServerWithWorkspace(async (started) => {
  t = started.t;
  apiKey = started.ws.apiKey;
  const { gc } = started;
  ids = [];
  for (const [i, metadata] of metadataCases.entries()) {
    const e = await gc.events.create({
      type: i % 2 ? 'webinar' : 'type with "quotes", \\ and\ttabs',
      title: `Event ${i} — ✓ “${i}” \u0002`,
      metadata,
      capacity: i % 3 ? null : 50 + i,
      visibility: (['public', 'unlisted', 'private'] as const)[i % 3],
      allowAnonymousVoting: i % 2 === 0,
      scheduledAt: i % 2 ? null : '2031-05-06T07:08:09.123456Z',
      scheduledEndAt: i % 2 ? null : '2031-05-06T10:00:00.5+02:00',
    });
    ids.push(e.id);
  }
  for (const status of ['scheduled', 'live', 'ended'] as const) ids.push((await eventIn(gc, status)).id);
  // Sub-millisecond precision stored directly (the API never truncates what it is given, but now() has µs).
  const stamps = [
    '2030-01-02T03:04:05.678999Z',
    '2030-01-02T03:04:05.000001Z',
    '1969-12-31T23:59:59.999999Z',
    '2030-01-02T03:04:05.999500Z',
    '0999-12-31T23:59:59.5Z',
    '9999-12-31T23:59:59.999999Z',
  ];
  await withDb(t.databaseUrl, async (db) => {
    for (const [i, id] of ids.slice(0, stamps.length).entries()) {
      await db.query(
        `update event set updated_at = $2, published_at = $3, started_at = $4, ended_at = null,
                created_at = now() + make_interval(secs => $5)
          where id = $1`,
        [
          id,
          stamps[i],
          stamps[(i + 1) % stamps.length],
          stamps[(i + 2) % stamps.length],
          i / 1000 + 0.000123,
        ],
      );
    }
  });
});

const get = async (path: string) => {
  const res = await fetch(`${t.url}${path}`, { headers: { 'x-api-key': apiKey } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return res.text();
};

/** The single read's text without its phases: the event object exactly as it printed it. */
const readWithoutPhases = async (id: string) => {
  const text = await get(`/v1/events/${id}`);
  const phases = `,"phases":${JSON.stringify((JSON.parse(text) as { phases: unknown[] }).phases)}}`;
  expect(text.endsWith(phases)).toBe(true);
  return `${text.slice(0, -phases.length)}}`;
};

describe('GET /v1/events JSON', () => {
  it('prints every event byte for byte as the single read does', async () => {
    const listed = await get('/v1/events');
    const order = (JSON.parse(listed) as { events: { id: string }[] }).events.map((e) => e.id);
    expect([...order].sort()).toEqual([...ids].sort());
    const reads = await Promise.all(order.map(readWithoutPhases));
    expect(listed).toBe(`{"events":[${reads.join(',')}],"nextCursor":null}`);
  });

  it('prints the same bytes page by page through the cursor', async () => {
    const whole = JSON.parse(await get('/v1/events')) as { events: unknown[] };
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const text = await get(`/v1/events?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      const page = JSON.parse(text) as { events: unknown[]; nextCursor: string | null };
      expect(text).toBe(
        `{"events":[${page.events.map((e) => JSON.stringify(e)).join(',')}],"nextCursor":${JSON.stringify(page.nextCursor)}}`,
      );
      pages.push(...page.events.map((e) => JSON.stringify(e)));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toEqual(whole.events.map((e) => JSON.stringify(e)));
  });

  it('keeps timestamps at millisecond precision, truncated, as toISOString prints them', async () => {
    const { events } = JSON.parse(await get('/v1/events')) as {
      events: { id: string; updatedAt: string; publishedAt: string | null }[];
    };
    const first = events.find((e) => e.id === ids[0])!;
    expect(first.updatedAt).toBe('2030-01-02T03:04:05.678Z');
    expect(first.publishedAt).toBe('2030-01-02T03:04:05.000Z');
    expect(events.find((e) => e.id === ids[2])!.updatedAt).toBe('1969-12-31T23:59:59.999Z');
  });
});
