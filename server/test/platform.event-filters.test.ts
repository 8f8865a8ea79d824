import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { apiKeyOf, failure, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

describe('GET /v1/events filters and sorts', () => {
  let t: TestServer;
  let gc: GathercastClient;
  const at = (day: number) => `2027-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;
  useTestServer({}, async (started) => {
    t = started;
    gc = t.client({ apiKey: await apiKeyOf(await signUp(t)) });
    for (const [title, day, visibility] of [
      ['third', 20, 'public'],
      ['first', 5, 'private'],
      ['second', 12, 'public'],
    ] as const) {
      const e = await gc.events.create({ type: 'webinar', title, scheduledAt: at(day), visibility });
      if (title !== 'second') await gc.events.publish(e.id);
    }
    await gc.events.create({ type: 'webinar', title: 'unscheduled' });
  });

  const titles = (page: { events: { title: string }[] }) => page.events.map((e) => e.title);

  it('sorts by scheduledAt, soonest first, unscheduled events last', async () => {
    expect(titles(await gc.events.list({ sort: 'scheduledAt' }))).toEqual([
      'first',
      'second',
      'third',
      'unscheduled',
    ]);
  });

  it('sorts by createdAt either way', async () => {
    expect(titles(await gc.events.list({ sort: 'createdAt' }))).toEqual([
      'third',
      'first',
      'second',
      'unscheduled',
    ]);
    expect(titles(await gc.events.list({}))).toEqual(['unscheduled', 'second', 'first', 'third']);
  });

  it('filters by status, visibility and a scheduledAt range', async () => {
    expect(titles(await gc.events.list({ status: 'draft', sort: 'scheduledAt' }))).toEqual([
      'second',
      'unscheduled',
    ]);
    expect(titles(await gc.events.list({ visibility: 'private' }))).toEqual(['first']);
    expect(
      titles(await gc.events.list({ scheduledFrom: at(5), scheduledTo: at(20), sort: 'scheduledAt' })),
    ).toEqual(['first', 'second']);
  });

  it('pages through a sorted, filtered list with the SDK’s for await', async () => {
    const seen: string[] = [];
    for await (const e of gc.events.list({ sort: '-scheduledAt', limit: 1, status: 'scheduled' }))
      seen.push(e.title);
    expect(seen).toEqual(['third', 'first']);
  });

  it('refuses a cursor of another sort with 400 bad_request', async () => {
    const { nextCursor } = await gc.events.list({ sort: 'scheduledAt', limit: 1 });
    const err = await failure(gc.events.list({ cursor: nextCursor!, sort: 'createdAt' }));
    expect([err.status, err.code]).toEqual([400, 'bad_request']);
  });
});
