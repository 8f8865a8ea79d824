import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn, rejection } from './support/events';
import { createWorkspace, withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

let n = 0;
const newUser = (name = 'Ada') => gc.users.upsert({ externalSub: `sub-${++n}`, name });

describe('users', () => {
  it('creates a user by externalSub with 201', async () => {
    const res = await gc.raw.users.upsert({
      externalSub: 'ext-1',
      email: 'Ada@Example.test',
      name: 'Ada',
      picture: 'https://example.test/a.png',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      externalSub: 'ext-1',
      email: 'ada@example.test',
      name: 'Ada',
      picture: 'https://example.test/a.png',
    });
  });

  it('updates the same externalSub with 200, keeping the id and the fields not sent', async () => {
    const first = await gc.users.upsert({ externalSub: 'ext-2', email: 'b@example.test', name: 'B' });
    const res = await gc.raw.users.upsert({ externalSub: 'ext-2', name: 'Bee' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: first.id, name: 'Bee', email: 'b@example.test' });
  });

  it('clears a field with null', async () => {
    await gc.users.upsert({ externalSub: 'ext-3', email: 'c@example.test' });
    expect((await gc.users.upsert({ externalSub: 'ext-3', email: null })).email).toBeNull();
  });

  it('lists the workspace’s users and nobody else’s', async () => {
    const other = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
    await other.users.upsert({ externalSub: 'ext-1', name: 'Theirs' });
    const { users } = await gc.users.list();
    expect(users.find((u) => u.externalSub === 'ext-1')?.name).toBe('Ada');
    expect(users.some((u) => u.name === 'Theirs')).toBe(false);
  });

  it('refuses an empty externalSub with 400', async () => {
    expect(await rejection(gc.users.upsert({ externalSub: '' }))).toMatchObject({
      status: 400,
      code: 'bad_request',
    });
  });
});

describe('memberships', () => {
  it('gives a user a role the event accepts, with 201', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'broadcast' }]);
    const user = await newUser();
    const res = await gc.raw.memberships.create(event.id, { userId: user.id, role: 'speaker' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ eventId: event.id, userId: user.id, role: 'speaker' });
  });

  it('refuses a role the event has no place for with 400 role_not_on_event listing the accepted roles', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'meeting' }]);
    const user = await newUser();
    const err = await rejection(gc.memberships.create(event.id, { userId: user.id, role: 'speaker' }));
    expect(err).toMatchObject({ status: 400, code: 'role_not_on_event' });
    expect(err.detail).toContain('host, participant, workspace_admin');
    expect(err.body.acceptedRoles).toEqual(['host', 'participant', 'workspace_admin']);
  });

  it('accepts the union of a multi-phase agenda', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'broadcast' }, { modality: 'breakout' }]);
    for (const role of ['host', 'speaker', 'participant', 'viewer', 'workspace_admin'] as const) {
      const user = await newUser();
      await gc.memberships.create(event.id, { userId: user.id, role });
    }
    expect((await gc.memberships.list(event.id)).memberships).toHaveLength(5);
  });

  it('accepts workspace_admin on an event without phases', async () => {
    const event = await eventIn(gc, 'draft', []);
    const user = await newUser();
    await gc.memberships.create(event.id, { userId: user.id, role: 'workspace_admin' });
  });

  it('replaces the role when the user already has one on the event', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'broadcast' }]);
    const user = await newUser();
    const first = await gc.memberships.create(event.id, { userId: user.id, role: 'viewer' });
    const second = await gc.memberships.create(event.id, { userId: user.id, role: 'speaker' });
    expect(second).toMatchObject({ id: first.id, role: 'speaker' });
    expect((await gc.memberships.list(event.id)).memberships).toHaveLength(1);
  });

  it('answers 404 for a user of another workspace', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'broadcast' }]);
    const other = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
    const theirs = await other.users.upsert({ externalSub: 'x' });
    const err = await rejection(gc.memberships.create(event.id, { userId: theirs.id, role: 'host' }));
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('answers 404 for an event of another workspace', async () => {
    const other = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
    const theirs = await eventIn(other, 'draft');
    const user = await newUser();
    const err = await rejection(gc.memberships.create(theirs.id, { userId: user.id, role: 'host' }));
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
    expect(await rejection(gc.memberships.list(theirs.id))).toMatchObject({
      status: 404,
    });
  });

  it('reads one membership and deletes it with 204', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'broadcast' }]);
    const user = await newUser();
    const m = await gc.memberships.create(event.id, { userId: user.id, role: 'host' });
    expect(await gc.memberships.retrieve(event.id, m.id)).toEqual(m);
    const res = await gc.raw.memberships.delete(event.id, m.id);
    expect(res.status).toBe(204);
    expect(await rejection(gc.memberships.retrieve(event.id, m.id))).toMatchObject({ status: 404 });
    expect(await rejection(gc.memberships.delete(event.id, m.id))).toMatchObject({ status: 404 });
  });

  it('answers 404 for a membership read through another event', async () => {
    const a = await eventIn(gc, 'draft', [{ modality: 'broadcast' }]);
    const b = await eventIn(gc, 'draft', [{ modality: 'broadcast' }]);
    const m = await gc.memberships.create(a.id, { userId: (await newUser()).id, role: 'host' });
    expect(await rejection(gc.memberships.retrieve(b.id, m.id))).toMatchObject({
      status: 404,
    });
  });

  it('keeps the stored role on read (narrowing happens on the live plane)', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'broadcast' }, { modality: 'meeting' }]);
    const m = await gc.memberships.create(event.id, { userId: (await newUser()).id, role: 'speaker' });
    expect((await gc.memberships.retrieve(event.id, m.id)).role).toBe('speaker');
  });
});

describe('questions', () => {
  async function seed(
    eventId: string,
    rows: { text: string; votes: number; ageSeconds: number; anonymous?: boolean }[],
  ) {
    await withDb(t.databaseUrl, async (db) => {
      for (const r of rows) {
        const q = await db.query(
          `insert into question (id, event_id, text, author_name, anonymous, created_at)
           values (gen_random_uuid(), $1, $2, 'Asker', $3, now() - make_interval(secs => $4)) returning id`,
          [eventId, r.text, r.anonymous ?? false, r.ageSeconds],
        );
        for (let v = 0; v < r.votes; v++) {
          await db.query('insert into question_vote (question_id, voter_key) values ($1, $2)', [
            q.rows[0].id,
            `voter-${v}`,
          ]);
        }
      }
    });
  }

  it('lists questions with vote tallies, oldest first', async () => {
    const event = await eventIn(gc, 'live');
    await seed(event.id, [
      { text: 'newer tie', votes: 2, ageSeconds: 10 },
      { text: 'top', votes: 5, ageSeconds: 5 },
      { text: 'older tie', votes: 2, ageSeconds: 100 },
      { text: 'none', votes: 0, ageSeconds: 200 },
    ]);
    const { questions } = await gc.questions.list(event.id);
    expect(questions.map((q) => [q.text, q.votes])).toEqual([
      ['none', 0],
      ['older tie', 2],
      ['newer tie', 2],
      ['top', 5],
    ]);
  });

  it('hides the author of an anonymous question', async () => {
    const event = await eventIn(gc, 'live');
    await seed(event.id, [{ text: 'secret', votes: 0, ageSeconds: 1, anonymous: true }]);
    const { questions } = await gc.questions.list(event.id);
    expect(questions[0]).toMatchObject({ anonymous: true, authorName: null, status: 'open' });
  });

  it('answers an empty list for an event without questions', async () => {
    const event = await eventIn(gc, 'draft');
    expect(await gc.questions.list(event.id)).toEqual({ questions: [], nextCursor: null });
  });

  it('answers 404 for another workspace’s event', async () => {
    const theirs = await eventIn(
      t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey }),
      'draft',
    );
    expect(await rejection(gc.questions.list(theirs.id))).toMatchObject({ status: 404 });
  });
});
