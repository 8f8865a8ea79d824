import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { rejection } from './support/events';
import { createWorkspace, type WorkspaceFixture, withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
let ws: WorkspaceFixture;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, ws, gc } = started);
});

const basic = { type: 'webinar', title: 'Launch' };

describe('create', () => {
  it('creates a draft and answers 201 with the bare event, without phases', async () => {
    const res = await gc.raw.events.create({ ...basic, phases: [{ modality: 'broadcast' }] });
    expect(res.status).toBe(201);
    const event = res.body as Record<string, unknown>;
    expect(event).toMatchObject({
      type: 'webinar',
      title: 'Launch',
      status: 'draft',
      workspaceId: ws.workspaceId,
    });
    expect(event).not.toHaveProperty('phases');
  });

  it('fills in defaults: unlisted, anonymous Q&A off, unlimited capacity, empty metadata, no times', async () => {
    const event = await gc.events.create(basic);
    expect(event).toMatchObject({
      visibility: 'unlisted',
      allowAnonymousVoting: false,
      allowAnonymousQuestions: false,
      capacity: null,
      metadata: {},
      scheduledAt: null,
      scheduledEndAt: null,
      activePhaseId: null,
      publishedAt: null,
      startedAt: null,
      endedAt: null,
    });
  });

  it('creates the phases given in the body, in order, pending', async () => {
    const event = await gc.events.create({
      ...basic,
      phases: [
        { modality: 'broadcast', featureSet: ['qa', 'chat'] },
        { modality: 'breakout', config: { roomSize: 6, durationSeconds: 600, extendable: true } },
        { modality: 'rotation', config: { rounds: 3, roundSeconds: 120 } },
      ],
    });
    const read = await gc.events.retrieve(event.id);
    expect(read.phases.map((p) => [p.position, p.modality, p.status])).toEqual([
      [0, 'broadcast', 'pending'],
      [1, 'breakout', 'pending'],
      [2, 'rotation', 'pending'],
    ]);
    expect(read.phases[0]!.featureSet).toEqual(['qa', 'chat']);
    expect(read.phases[1]!.config).toEqual({ roomSize: 6, durationSeconds: 600, extendable: true });
  });

  it('fills in breakout config defaults', async () => {
    const event = await gc.events.create({ ...basic, phases: [{ modality: 'breakout' }] });
    const read = await gc.events.retrieve(event.id);
    expect(read.phases[0]!.config).toEqual({ roomSize: 4, extendable: false });
  });

  it('refuses an unknown phase config key with 400 bad_request naming the field', async () => {
    const err = await rejection(
      gc.events.create({ ...basic, phases: [{ modality: 'meeting', config: { roomSize: 3 } as never }] }),
    );
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    expect(err.errors?.map((e) => e.path)).toEqual(['body.phases.0.config']);
  });

  it('refuses a rotation without its config', async () => {
    const err = await rejection(gc.events.create({ ...basic, phases: [{ modality: 'rotation' } as never] }));
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('refuses a missing title with 400 bad_request', async () => {
    const err = await rejection(gc.events.create({ type: 'webinar' } as never));
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    expect(err.errors?.map((e) => e.path)).toEqual(['body.title']);
  });

  it('refuses scheduledEndAt before scheduledAt', async () => {
    const err = await rejection(
      gc.events.create({
        ...basic,
        scheduledAt: '2030-01-02T10:00:00Z',
        scheduledEndAt: '2030-01-02T09:00:00Z',
      }),
    );
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('makes the creator a host when created with an account session', async () => {
    const asOwner = t.client({ sessionToken: ws.sessionToken });
    const event = await asOwner.events.create(basic);
    const { memberships } = await gc.memberships.list(event.id);
    expect(memberships).toHaveLength(1);
    expect(memberships[0]!.role).toBe('host');
    const { users } = await gc.users.list();
    const creator = users.find((u) => u.id === memberships[0]!.userId)!;
    expect(creator).toMatchObject({
      externalSub: `account:${ws.accountId}`,
      name: ws.accountName,
      email: ws.email,
    });
  });

  it('gives no membership when created with an API key', async () => {
    const event = await gc.events.create(basic);
    expect((await gc.memberships.list(event.id)).memberships).toEqual([]);
  });
});

describe('read', () => {
  it('reads an event with its phases', async () => {
    const event = await gc.events.create({ ...basic, phases: [{ modality: 'meeting' }] });
    const read = await gc.events.retrieve(event.id);
    expect(read).toMatchObject({
      ...event,
      phases: [{ modality: 'meeting', eventId: event.id, status: 'pending' }],
    });
  });

  it('answers 404 for another workspace’s event', async () => {
    const other = await createWorkspace(t.databaseUrl);
    const theirs = await t.client({ apiKey: other.apiKey }).events.create(basic);
    expect(await rejection(gc.events.retrieve(theirs.id))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('answers 404 for a malformed id', async () => {
    const res = await fetch(`${t.url}/v1/events/nope`, { headers: { 'x-api-key': ws.apiKey } });
    expect(res.status).toBe(404);
  });
});

describe('update', () => {
  it('changes only the fields given', async () => {
    const event = await gc.events.create({ ...basic, visibility: 'public', capacity: 10 });
    const updated = await gc.events.update(event.id, { title: 'Renamed' });
    expect(updated).toMatchObject({ title: 'Renamed', visibility: 'public', capacity: 10, type: 'webinar' });
    expect(new Date(updated.updatedAt) >= new Date(event.updatedAt)).toBe(true);
  });

  it('clears scheduledAt with null', async () => {
    const event = await gc.events.create({ ...basic, scheduledAt: '2030-01-02T10:00:00Z' });
    expect(event.scheduledAt).toBe('2030-01-02T10:00:00.000Z');
    const updated = await gc.events.update(event.id, { scheduledAt: null });
    expect(updated.scheduledAt).toBeNull();
  });

  it('replaces metadata wholesale', async () => {
    const event = await gc.events.create({ ...basic, metadata: { description: 'a', keep: 1 } });
    const updated = await gc.events.update(event.id, { metadata: { other: true } });
    expect(updated.metadata).toEqual({ other: true });
  });

  it('updates every documented field', async () => {
    const event = await gc.events.create(basic);
    const updated = await gc.events.update(event.id, {
      scheduledAt: '2030-05-01T10:00:00Z',
      scheduledEndAt: '2030-05-01T11:00:00Z',
      visibility: 'private',
      allowAnonymousVoting: true,
      allowAnonymousQuestions: true,
      capacity: 50,
    });
    expect(updated).toMatchObject({
      scheduledAt: '2030-05-01T10:00:00.000Z',
      scheduledEndAt: '2030-05-01T11:00:00.000Z',
      visibility: 'private',
      allowAnonymousVoting: true,
      allowAnonymousQuestions: true,
      capacity: 50,
    });
  });

  it('refuses a scheduledEndAt before the stored scheduledAt', async () => {
    const event = await gc.events.create({ ...basic, scheduledAt: '2030-01-02T10:00:00Z' });
    const err = await rejection(gc.events.update(event.id, { scheduledEndAt: '2030-01-01T10:00:00Z' }));
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('answers 404 for another workspace’s event', async () => {
    const other = await createWorkspace(t.databaseUrl);
    const theirs = await t.client({ apiKey: other.apiKey }).events.create(basic);
    const err = await rejection(gc.events.update(theirs.id, { title: 'x' }));
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('delete', () => {
  it('answers 204 and the event is gone', async () => {
    const event = await gc.events.create(basic);
    const res = await gc.raw.events.delete(event.id);
    expect(res.status).toBe(204);
    expect(await rejection(gc.events.retrieve(event.id))).toMatchObject({ status: 404 });
  });

  it('removes phases, memberships, registrations, entry tokens and sessions, questions, votes and invites with it', async () => {
    const event = await gc.events.create({
      ...basic,
      visibility: 'public',
      phases: [{ modality: 'meeting' }],
    });
    await gc.events.publish(event.id);
    const user = await gc.users.upsert({ externalSub: 'del-1', name: 'Del' });
    await gc.memberships.create(event.id, { userId: user.id, role: 'participant' });
    await t.client().public.register(event.id, { name: 'R', email: 'r@example.test' });
    await withDb(t.databaseUrl, async (db) => {
      const q = await db.query(
        `insert into question (id, event_id, text) values (gen_random_uuid(), $1, 'Q?') returning id`,
        [event.id],
      );
      await db.query(`insert into question_vote (question_id, voter_key) values ($1, 'v1')`, [q.rows[0].id]);
      await db.query(
        `insert into invite (id, workspace_id, kind, role, event_id, token_hash, expires_at)
         values (gen_random_uuid(), $1, 'event', 'host', $2, md5(random()::text), now() + interval '1 day')`,
        [ws.workspaceId, event.id],
      );
      await db.query(
        `insert into session (id, kind, token_hash, event_id, expires_at)
         values (gen_random_uuid(), 'entry', md5(random()::text), $1, now() + interval '1 day')`,
        [event.id],
      );
    });
    await gc.events.delete(event.id);
    const counts = await withDb(t.databaseUrl, async (db) => {
      const one = async (table: string, where: string) =>
        Number((await db.query(`select count(*) from ${table} where ${where}`, [event.id])).rows[0].count);
      return {
        phase: await one('phase', 'event_id = $1'),
        membership: await one('event_membership', 'event_id = $1'),
        registration: await one('registration', 'event_id = $1'),
        question: await one('question', 'event_id = $1'),
        invite: await one('invite', 'event_id = $1'),
        session: await one('session', 'event_id = $1'),
        votes: await one(
          'question_vote v',
          'not exists (select 1 from question q where q.id = v.question_id) and $1::uuid is not null',
        ),
        tokens: await one(
          'registration_entry_token t',
          'not exists (select 1 from registration r where r.id = t.registration_id) and $1::uuid is not null',
        ),
      };
    });
    expect(counts).toEqual({
      phase: 0,
      membership: 0,
      registration: 0,
      question: 0,
      invite: 0,
      session: 0,
      votes: 0,
      tokens: 0,
    });
  });

  it('answers 404 for another workspace’s event and leaves it alone', async () => {
    const other = await createWorkspace(t.databaseUrl);
    const theirs = await t.client({ apiKey: other.apiKey }).events.create(basic);
    expect(await rejection(gc.events.delete(theirs.id))).toMatchObject({ status: 404 });
    await t.client({ apiKey: other.apiKey }).events.retrieve(theirs.id);
  });
});
