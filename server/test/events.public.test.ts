import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { mailboxOf } from './support/accounts';
import { eventIn, rejection } from './support/events';
import { createAccount, createWorkspace, type WorkspaceFixture, withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
let ws: WorkspaceFixture;
let gc: GathercastClient;
let anon: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, ws, gc, anon } = started);
});

const publicEvent = (
  status: 'draft' | 'scheduled' | 'live' | 'ended' = 'scheduled',
  extra: Record<string, unknown> = {},
) => eventIn(gc, status, [{ modality: 'broadcast' }], { visibility: 'public', ...extra });

let n = 0;
const person = () => ({ name: `Person ${++n}`, email: `person${n}@example.test` });

/** The entry token from the newest confirmation email to `to`. */
async function entryToken(to: string): Promise<string> {
  const emails = await mailboxOf(t, to);
  const link = emails[0]!.links[0]!;
  return new URL(link).searchParams.get('token')!;
}

describe('public event view', () => {
  it('shows a published event with its phases, cast names and no broadcast yet', async () => {
    const event = await eventIn(
      gc,
      'scheduled',
      [{ modality: 'broadcast', featureSet: ['qa'] }, { modality: 'breakout' }],
      {
        visibility: 'public',
        metadata: { description: 'About it', secret: 'x' },
      },
    );
    const host = await gc.users.upsert({ externalSub: 'h', name: 'Hana Host', email: 'hana@example.test' });
    const speaker = await gc.users.upsert({ externalSub: 's', name: 'Sam Speaker' });
    const viewer = await gc.users.upsert({ externalSub: 'v', name: 'Vic Viewer' });
    await gc.memberships.create(event.id, { userId: speaker.id, role: 'speaker' });
    await gc.memberships.create(event.id, { userId: host.id, role: 'host' });
    await gc.memberships.create(event.id, { userId: viewer.id, role: 'viewer' });
    const view = await anon.public.retrieveEvent(event.id);
    expect(view).toMatchObject({
      id: event.id,
      title: event.title,
      status: 'scheduled',
      description: 'About it',
      activeBroadcast: null,
    });
    expect(view.phases.map((p) => [p.modality, p.status])).toEqual([
      ['broadcast', 'pending'],
      ['breakout', 'pending'],
    ]);
    expect(view.cast).toEqual([
      { name: 'Hana Host', role: 'host' },
      { name: 'Sam Speaker', role: 'speaker' },
    ]);
    expect(JSON.stringify(view)).not.toContain('hana@example.test');
    expect(view).not.toHaveProperty('metadata');
    expect(view).not.toHaveProperty('workspaceId');
  });

  it('shows unlisted events to anyone with the id', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    expect((await anon.public.retrieveEvent(event.id)).status).toBe('live');
  });

  it('never shows a draft, even to the owning workspace', async () => {
    const event = await publicEvent('draft');
    expect(await rejection(anon.public.retrieveEvent(event.id))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    const owner = t.client({ sessionToken: ws.sessionToken });
    expect(await rejection(owner.public.retrieveEvent(event.id))).toMatchObject({
      status: 404,
    });
  });

  it('hides a private event from anonymous callers with 404', async () => {
    const event = await publicEvent('scheduled', { visibility: 'private' });
    expect(await rejection(anon.public.retrieveEvent(event.id))).toMatchObject({
      status: 404,
    });
  });

  it('shows a private event to a session of a member of the owning workspace', async () => {
    const event = await publicEvent('scheduled', { visibility: 'private' });
    const member = await createAccount(t.databaseUrl, { workspaceId: ws.workspaceId });
    const view = await t.client({ sessionToken: member.sessionToken }).public.retrieveEvent(event.id);
    expect(view.visibility).toBe('private');
  });

  it('shows a private event to a workspace session (gcw_) of the owning workspace', async () => {
    const event = await publicEvent('scheduled', { visibility: 'private' });
    const owner = t.client({ sessionToken: ws.sessionToken });
    const { sessionToken } = await owner.workspaces.createSession(ws.workspaceId);
    expect(sessionToken).toMatch(/^gcw_/);
    const view = await t.client({ sessionToken }).public.retrieveEvent(event.id);
    expect(view.id).toBe(event.id);
  });

  it('hides a private event from a session of another workspace’s member', async () => {
    const event = await publicEvent('scheduled', { visibility: 'private' });
    const stranger = await createAccount(t.databaseUrl, {
      workspaceId: (await createWorkspace(t.databaseUrl)).workspaceId,
    });
    const err = await rejection(
      t.client({ sessionToken: stranger.sessionToken }).public.retrieveEvent(event.id),
    );
    expect(err).toMatchObject({ status: 404 });
  });

  it('does not accept the workspace API key in place of a session for a private event', async () => {
    const event = await publicEvent('scheduled', { visibility: 'private' });
    expect(await rejection(gc.public.retrieveEvent(event.id))).toMatchObject({ status: 404 });
  });

  it('answers 404 for an unknown event', async () => {
    expect(await rejection(anon.public.retrieveEvent(crypto.randomUUID()))).toMatchObject({
      status: 404,
    });
  });
});

describe('registration', () => {
  it('registers and answers {registered: true, alreadyRegistered: false}', async () => {
    const event = await publicEvent();
    const res = await anon.public.register(event.id, person());
    expect(res).toMatchObject({ registered: true, alreadyRegistered: false });
  });

  it('sends a confirmation email carrying a gce_ entry link', async () => {
    const event = await publicEvent();
    const p = person();
    await anon.public.register(event.id, p);
    const emails = await mailboxOf(t, p.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toContain(event.title);
    expect(emails[0]!.links[0]).toMatch(new RegExp(`^${t.url}/events/${event.id}/enter\\?token=gce_`));
    expect(emails[0]!.text).toContain(emails[0]!.links[0]);
  });

  it('stores only the hash of the entry token', async () => {
    const event = await publicEvent();
    const p = person();
    await anon.public.register(event.id, p);
    const token = await entryToken(p.email);
    const dump = await withDb(t.databaseUrl, async (db) =>
      JSON.stringify((await db.query('select * from registration_entry_token')).rows),
    );
    expect(dump).not.toContain(token);
  });

  it('answers alreadyRegistered the second time and sends the confirmation again', async () => {
    const event = await publicEvent();
    const p = person();
    await anon.public.register(event.id, p);
    const again = await anon.public.register(event.id, { ...p, email: p.email.toUpperCase() });
    expect(again).toMatchObject({ registered: true, alreadyRegistered: true });
    const emails = await mailboxOf(t, p.email);
    expect(emails).toHaveLength(2);
  });

  it('lets a registered person re-register on a full event', async () => {
    const event = await publicEvent('scheduled', { capacity: 1 });
    const p = person();
    await anon.public.register(event.id, p);
    expect((await anon.public.register(event.id, p)).alreadyRegistered).toBe(true);
  });

  it('refuses a registration past capacity with 409 event_full', async () => {
    const event = await publicEvent('scheduled', { capacity: 2 });
    await anon.public.register(event.id, person());
    await anon.public.register(event.id, person());
    const err = await rejection(anon.public.register(event.id, person()));
    expect(err).toMatchObject({ status: 409, code: 'event_full' });
  });

  it('registers for a live event', async () => {
    const event = await publicEvent('live');
    expect((await anon.public.register(event.id, person())).registered).toBe(true);
  });

  it('answers 404 for a draft', async () => {
    const event = await publicEvent('draft');
    expect(await rejection(anon.public.register(event.id, person()))).toMatchObject({ status: 404 });
  });

  it('answers 404 for a private event', async () => {
    const event = await publicEvent('scheduled', { visibility: 'private' });
    expect(await rejection(anon.public.register(event.id, person()))).toMatchObject({ status: 404 });
  });

  it('refuses self-registration for a private event to its own workspace with 403', async () => {
    const event = await publicEvent('scheduled', { visibility: 'private' });
    const owner = t.client({ sessionToken: ws.sessionToken });
    const err = await rejection(owner.public.register(event.id, person()));
    expect(err).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('answers 409 invalid_state for an ended event', async () => {
    const event = await publicEvent('ended');
    const err = await rejection(anon.public.register(event.id, person()));
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
  });

  it('enforces the body limits and refuses extra properties', async () => {
    const event = await publicEvent();
    const bad = [
      { name: '', email: 'a@example.test' },
      { name: 'x'.repeat(201), email: 'a@example.test' },
      { name: 'A', email: 'not-an-email' },
      { name: 'A', email: `${'a'.repeat(310)}@example.test` },
      { name: 'A', email: 'a@example.test', extra: 1 },
      { name: 'A' },
    ];
    for (const body of bad) {
      const err = await rejection(anon.public.register(event.id, body as never));
      expect(err, JSON.stringify(body).slice(0, 60)).toMatchObject({ status: 400, code: 'bad_request' });
    }
    expect(
      (await anon.public.register(event.id, { name: 'x'.repeat(200), email: 'max@example.test' })).registered,
    ).toBe(true);
  });

  it('admits exactly 150 of 200 concurrent registrations for capacity 150 and refuses 50 with event_full', async () => {
    const event = await publicEvent('scheduled', { capacity: 150 });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        anon.public.register(event.id, { name: `Crowd ${i}`, email: `crowd${i}@example.test` }),
      ),
    );
    const admitted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(admitted).toHaveLength(150);
    expect(refused).toHaveLength(50);
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409, code: 'event_full' });
    const stored = await withDb(t.databaseUrl, async (db) => ({
      rows: Number(
        (await db.query('select count(*) from registration where event_id = $1', [event.id])).rows[0].count,
      ),
      counter: (await db.query('select registered_count from event where id = $1', [event.id])).rows[0]
        .registered_count,
    }));
    expect(stored).toEqual({ rows: 150, counter: 150 });
  });
});

describe('entry', () => {
  async function registered(status: 'scheduled' | 'live' = 'scheduled') {
    const event = await publicEvent(status);
    const p = person();
    await anon.public.register(event.id, p);
    return { event, p, token: await entryToken(p.email) };
  }

  it('exchanges the entry token for an entry session', async () => {
    const { event, p, token } = await registered();
    const session = await anon.public.enter(event.id, { token });
    expect(session).toMatchObject({ eventId: event.id, name: p.name });
    expect(session.sessionToken).toMatch(/^gce_/);
    expect(session.sessionToken).not.toBe(token);
    const row = await withDb(
      t.databaseUrl,
      async (db) =>
        (await db.query(`select kind, event_id, workspace_id from session where event_id = $1`, [event.id]))
          .rows,
    );
    expect(row).toEqual([{ kind: 'entry', event_id: event.id, workspace_id: ws.workspaceId }]);
  });

  it('makes the entry session a working Bearer credential on public routes', async () => {
    const { event, token } = await registered();
    const { sessionToken } = await anon.public.enter(event.id, { token });
    expect((await t.client({ sessionToken }).public.retrieveEvent(event.id)).id).toBe(event.id);
  });

  it('refuses a used token with 400 invalid_token', async () => {
    const { event, token } = await registered();
    await anon.public.enter(event.id, { token });
    const err = await rejection(anon.public.enter(event.id, { token }));
    expect(err).toMatchObject({ status: 400, code: 'invalid_token' });
  });

  it('lets only one of two simultaneous uses of a token through', async () => {
    const { event, token } = await registered();
    const results = await Promise.allSettled([0, 1, 2].map(() => anon.public.enter(event.id, { token })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('refuses an unknown token with 400 invalid_token', async () => {
    const event = await publicEvent();
    for (const token of ['gce_nope', 'nope']) {
      const err = await rejection(anon.public.enter(event.id, { token }));
      expect(err).toMatchObject({ status: 400, code: 'invalid_token' });
    }
  });

  it('refuses a token for another event with 400 invalid_token', async () => {
    const { token } = await registered();
    const other = await publicEvent();
    const err = await rejection(anon.public.enter(other.id, { token }));
    expect(err).toMatchObject({ status: 400, code: 'invalid_token' });
  });

  it('refuses a token once the event has ended (expired) with 400 invalid_token', async () => {
    const { event, token } = await registered('live');
    await gc.events.end(event.id);
    const err = await rejection(anon.public.enter(event.id, { token }));
    expect(err).toMatchObject({ status: 400, code: 'invalid_token' });
  });

  it('keeps an earlier confirmation’s token working after registering again', async () => {
    const event = await publicEvent();
    const p = person();
    await anon.public.register(event.id, p);
    const first = await entryToken(p.email);
    await anon.public.register(event.id, p);
    expect((await anon.public.enter(event.id, { token: first })).eventId).toBe(event.id);
  });
});
