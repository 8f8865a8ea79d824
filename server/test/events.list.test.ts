import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { rejection } from './support/events';
import { createWorkspace, withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
/** Ids of the 130 events created in beforeAll, oldest first. */
let created: string[];
useServerWithWorkspace(async (started) => {
  ({ t, gc } = started);
  created = [];
  for (let i = 0; i < 130; i++)
    created.push((await gc.events.create({ type: 'list', title: `Event ${i}` })).id);
});

const newestFirst = () => [...created].reverse();

describe('GET /v1/events', () => {
  it('answers at most 100 events by default, newest first, with a cursor to the rest', async () => {
    const page = await gc.events.list();
    expect(page.events.map((e) => e.id)).toEqual(newestFirst().slice(0, 100));
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it('follows nextCursor to the last page, where it is null', async () => {
    const first = await gc.events.list();
    const second = await gc.events.list({ cursor: first.nextCursor! });
    expect(second.events.map((e) => e.id)).toEqual(newestFirst().slice(100));
    expect(second.nextCursor).toBeNull();
  });

  it('honours limit and covers every event exactly once across pages', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await gc.events.list({ limit: 7, cursor });
      expect(page.events.length).toBeLessThanOrEqual(7);
      seen.push(...page.events.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(newestFirst());
  });

  it('keeps pages stable while new events are created', async () => {
    const first = await gc.events.list({ limit: 10 });
    const fresh = await gc.events.create({ type: 'list', title: 'Newer' });
    const second = await gc.events.list({ limit: 10, cursor: first.nextCursor! });
    expect(second.events.map((e) => e.id)).toEqual(newestFirst().slice(10, 20));
    await gc.events.delete(fresh.id);
  });

  it('breaks createdAt ties by id without losing or repeating an event', async () => {
    const tie = await createWorkspace(t.databaseUrl);
    const tc = t.client({ apiKey: tie.apiKey });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await tc.events.create({ type: 'tie', title: `Tie ${i}` })).id);
    await withDb(t.databaseUrl, (db) =>
      db.query(`update event set created_at = '2030-01-01T00:00:00.123456Z' where workspace_id = $1`, [
        tie.workspaceId,
      ]),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await tc.events.list({ limit: 2, cursor });
      seen.push(...page.events.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].sort().reverse());
  });

  it('iterates every page through the SDK’s list (for await)', async () => {
    const all: string[] = [];
    for await (const e of gc.events.list({ limit: 2 })) all.push(e.id);
    expect(all).toEqual(newestFirst());
  });

  it('refuses limit 0 and 101 with 400 bad_request', async () => {
    for (const limit of [0, 101]) {
      const err = await rejection(gc.events.list({ limit }));
      expect(err).toMatchObject({ status: 400, code: 'bad_request' });
      expect(err.errors?.map((e) => e.path)).toEqual(['query.limit']);
    }
  });

  it('accepts limit 1 and 100', async () => {
    expect((await gc.events.list({ limit: 1 })).events).toHaveLength(1);
    expect((await gc.events.list({ limit: 100 })).events).toHaveLength(100);
  });

  it('refuses a cursor it did not issue with 400 bad_request', async () => {
    const err = await rejection(gc.events.list({ cursor: 'bm9wZQ' }));
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    expect(err.errors?.map((e) => e.path)).toEqual(['query.cursor']);
  });

  it('lists only the caller’s workspace', async () => {
    const other = await createWorkspace(t.databaseUrl);
    const oc = t.client({ apiKey: other.apiKey });
    const theirs = await oc.events.create({ type: 'x', title: 'Theirs' });
    expect((await oc.events.list()).events.map((e) => e.id)).toEqual([theirs.id]);
    const mine = new Set((await gc.events.list()).events.map((e) => e.id));
    expect(mine.has(theirs.id)).toBe(false);
  });

  it('answers an empty page for a workspace without events', async () => {
    const empty = await createWorkspace(t.databaseUrl);
    expect(await t.client({ apiKey: empty.apiKey }).events.list()).toEqual({ events: [], nextCursor: null });
  });
});
