import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { mailboxOf } from './support/accounts';
import { domainEventsOf, eventIn, rejection, type Status } from './support/events';
import { createAccount, createWorkspace, type WorkspaceFixture, withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { startTestServer, type TestServer } from './support/server';

/**
 * Broadcast start and pause through the SDK against the real server (docs/broadcasts.md): every
 * state and wrong-state row, the public view's activeBroadcast, tenancy and who may call.
 */

let t: TestServer;
let ws: WorkspaceFixture;
let gc: GathercastClient;
let anon: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, ws, gc, anon } = started);
});

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const playlistOf = (eventId: string) => `${t.url}/hls/evt_${eventId}_stage/index.m3u8`;

const start = (id: string, client = gc) => client.broadcast.start(id);
const pause = (id: string, client = gc) => client.broadcast.pause(id);
const advance = (id: string) => gc.events.advance(id, {});
const viewOf = async (id: string) => (await anon.public.retrieveEvent(id)).activeBroadcast;

/** A live event whose active (first) phase is a broadcast. */
const liveBroadcastEvent = (phases: ('broadcast' | 'meeting')[] = ['broadcast']) =>
  eventIn(
    gc,
    'live',
    phases.map((modality) => ({ modality })),
  );

/** The broadcast webhooks recorded for an event, sorted by type: changes within one millisecond have no order. */
const broadcastTypes = async (eventId: string) =>
  (await domainEventsOf(t.databaseUrl, eventId))
    .map((e) => e.type)
    .filter((x) => x.startsWith('broadcast.'))
    .sort();

const broadcastRows = (eventId: string) =>
  withDb(
    t.databaseUrl,
    async (db) =>
      (
        await db.query<{ id: string; status: string; ended: boolean }>(
          'select id, status, ended_at is not null as ended from broadcast where event_id = $1 order by created_at',
          [eventId],
        )
      ).rows,
  );

describe('start', () => {
  it('starts the active broadcast phase: live, a new broadcastId and the stage playlist under HLS_BASE_URL', async () => {
    const event = await liveBroadcastEvent();
    const started = await start(event.id);
    expect(started).toEqual({
      broadcastId: expect.stringMatching(uuidShape),
      eventId: event.id,
      status: 'live',
      playbackUrl: playlistOf(event.id),
    });
    expect(await broadcastTypes(event.id)).toEqual(['broadcast.live']);
  });

  it('answers the current state unchanged, with no second broadcast.live, when already live', async () => {
    const event = await liveBroadcastEvent();
    const first = await start(event.id);
    const again = await start(event.id);
    expect(again).toEqual(first);
    expect(await broadcastTypes(event.id)).toEqual(['broadcast.live']);
  });

  it('resumes a paused broadcast with the same broadcastId and playbackUrl, firing broadcast.live again', async () => {
    const event = await liveBroadcastEvent();
    const first = await start(event.id);
    await pause(event.id);
    const resumed = await start(event.id);
    expect(resumed).toEqual({ ...first, status: 'live' });
    expect(await broadcastTypes(event.id)).toEqual(['broadcast.live', 'broadcast.live', 'broadcast.paused']);
  });

  const notLive: Status[] = ['draft', 'scheduled', 'ended'];
  it.each(notLive)(
    'refuses an event that is %s with 409 invalid_state and records nothing',
    async (status) => {
      const event = await eventIn(gc, status);
      expect(await rejection(start(event.id))).toMatchObject({ status: 409, code: 'invalid_state' });
      expect(await broadcastTypes(event.id)).toEqual([]);
      expect(await broadcastRows(event.id)).toEqual([]);
    },
  );

  it('refuses a live event whose active phase is a meeting with 409 invalid_state', async () => {
    const event = await liveBroadcastEvent(['meeting', 'broadcast']);
    expect(await rejection(start(event.id))).toMatchObject({ status: 409, code: 'invalid_state' });
    expect(await broadcastRows(event.id)).toEqual([]);
  });

  it('refuses a live event without phases with 409 invalid_state', async () => {
    const event = await eventIn(gc, 'live', []);
    expect(await rejection(start(event.id))).toMatchObject({ status: 409, code: 'invalid_state' });
  });

  it('gives the next broadcast phase a new broadcastId: broadcast → meeting → broadcast', async () => {
    const event = await liveBroadcastEvent(['broadcast', 'meeting', 'broadcast']);
    const first = await start(event.id);
    await advance(event.id);
    expect(await rejection(start(event.id))).toMatchObject({ status: 409, code: 'invalid_state' });
    await advance(event.id);
    const second = await start(event.id);
    expect(second.broadcastId).not.toBe(first.broadcastId);
    expect(second).toEqual({
      broadcastId: second.broadcastId,
      eventId: event.id,
      status: 'live',
      playbackUrl: playlistOf(event.id),
    });
    expect(await broadcastRows(event.id)).toEqual([
      { id: first.broadcastId, status: 'ended', ended: true },
      { id: second.broadcastId, status: 'live', ended: false },
    ]);
  });

  it('gives a broadcast phase that directly follows another broadcast phase a new broadcastId', async () => {
    const event = await liveBroadcastEvent(['broadcast', 'broadcast']);
    const first = await start(event.id);
    await advance(event.id);
    expect(await viewOf(event.id)).toBeNull();
    const second = await start(event.id);
    expect(second.broadcastId).not.toBe(first.broadcastId);
  });
});

describe('pause', () => {
  it('pauses a live broadcast: same broadcastId and playbackUrl, status paused', async () => {
    const event = await liveBroadcastEvent();
    const started = await start(event.id);
    expect(await pause(event.id)).toEqual({ ...started, status: 'paused' });
    expect(await broadcastTypes(event.id)).toEqual(['broadcast.live', 'broadcast.paused']);
  });

  it('refuses a broadcast that is already paused with 409 invalid_state and records nothing', async () => {
    const event = await liveBroadcastEvent();
    await start(event.id);
    await pause(event.id);
    expect(await rejection(pause(event.id))).toMatchObject({ status: 409, code: 'invalid_state' });
    expect(await broadcastTypes(event.id)).toEqual(['broadcast.live', 'broadcast.paused']);
  });

  it('refuses a broadcast phase that was never started with 409 invalid_state', async () => {
    const event = await liveBroadcastEvent();
    expect(await rejection(pause(event.id))).toMatchObject({ status: 409, code: 'invalid_state' });
    expect(await broadcastRows(event.id)).toEqual([]);
  });

  const notLive: Status[] = ['draft', 'scheduled', 'ended'];
  it.each(notLive)('refuses an event that is %s with 409 invalid_state', async (status) => {
    const event = await eventIn(gc, status);
    expect(await rejection(pause(event.id))).toMatchObject({ status: 409, code: 'invalid_state' });
  });

  it('refuses once the broadcast phase has been advanced past (the broadcast has ended)', async () => {
    const event = await liveBroadcastEvent(['broadcast', 'meeting']);
    await start(event.id);
    await advance(event.id);
    expect(await rejection(pause(event.id))).toMatchObject({ status: 409, code: 'invalid_state' });
  });
});

describe('the broadcast ends with its phase', () => {
  it('advancing to the next phase ends a live broadcast in the same transaction', async () => {
    const event = await liveBroadcastEvent(['broadcast', 'meeting']);
    const { broadcastId } = await start(event.id);
    await advance(event.id);
    expect(await broadcastRows(event.id)).toEqual([{ id: broadcastId, status: 'ended', ended: true }]);
  });

  it('ending the event ends a paused broadcast', async () => {
    const event = await liveBroadcastEvent();
    const { broadcastId } = await start(event.id);
    await pause(event.id);
    await gc.events.end(event.id);
    expect(await broadcastRows(event.id)).toEqual([{ id: broadcastId, status: 'ended', ended: true }]);
    expect(await rejection(start(event.id))).toMatchObject({ status: 409, code: 'invalid_state' });
  });

  it('the advance past the last phase ends the broadcast with the event', async () => {
    const event = await liveBroadcastEvent();
    const { broadcastId } = await start(event.id);
    expect((await advance(event.id)).status).toBe('ended');
    expect(await broadcastRows(event.id)).toEqual([{ id: broadcastId, status: 'ended', ended: true }]);
  });

  it('a phase ended by any statement ends its broadcast (the rule lives in the database)', async () => {
    const event = await liveBroadcastEvent();
    const { broadcastId } = await start(event.id);
    await withDb(t.databaseUrl, (db) =>
      db.query(`update phase set status = 'ended', ended_at = now() where event_id = $1`, [event.id]),
    );
    expect(await broadcastRows(event.id)).toEqual([{ id: broadcastId, status: 'ended', ended: true }]);
  });

  it('deleting the event deletes its broadcasts', async () => {
    const event = await liveBroadcastEvent();
    await start(event.id);
    await gc.events.delete(event.id);
    expect(await broadcastRows(event.id)).toEqual([]);
  });
});

describe('public view activeBroadcast', () => {
  it('is null before the event is live, and while the broadcast phase is not yet started', async () => {
    const event = await eventIn(gc, 'scheduled', [{ modality: 'broadcast' }]);
    expect(await viewOf(event.id)).toBeNull();
    await gc.events.start(event.id);
    expect(await viewOf(event.id)).toBeNull();
  });

  it('shows the live broadcast, then the paused one, then null after the phase ends', async () => {
    const event = await liveBroadcastEvent(['broadcast', 'meeting']);
    const started = await start(event.id);
    const running = { broadcastId: started.broadcastId, playbackUrl: started.playbackUrl };
    expect(await viewOf(event.id)).toEqual({ ...running, status: 'live' });
    await pause(event.id);
    expect(await viewOf(event.id)).toEqual({ ...running, status: 'paused' });
    await start(event.id);
    expect(await viewOf(event.id)).toEqual({ ...running, status: 'live' });
    await advance(event.id);
    expect(await viewOf(event.id)).toBeNull();
  });

  it('is null after the event ends', async () => {
    const event = await liveBroadcastEvent();
    await start(event.id);
    await gc.events.end(event.id);
    const view = await anon.public.retrieveEvent(event.id);
    expect(view.status).toBe('ended');
    expect(view.activeBroadcast).toBeNull();
  });

  it('shows the second broadcast phase’s own broadcast once it starts', async () => {
    const event = await liveBroadcastEvent(['broadcast', 'meeting', 'broadcast']);
    await start(event.id);
    await advance(event.id);
    await advance(event.id);
    expect(await viewOf(event.id)).toBeNull();
    const second = await start(event.id);
    expect(await viewOf(event.id)).toEqual({
      broadcastId: second.broadcastId,
      status: 'live',
      playbackUrl: second.playbackUrl,
    });
  });
});

describe('who may call', () => {
  it('lets a plain member’s account session start and pause', async () => {
    const member = await createAccount(t.databaseUrl, { workspaceId: ws.workspaceId, role: 'member' });
    const asMember = t.client({ sessionToken: member.sessionToken });
    const event = await liveBroadcastEvent();
    expect((await start(event.id, asMember)).status).toBe('live');
    expect((await pause(event.id, asMember)).status).toBe('paused');
  });

  it('lets the workspace API key start and pause', async () => {
    const event = await liveBroadcastEvent();
    expect((await start(event.id, gc)).status).toBe('live');
    expect((await pause(event.id, gc)).status).toBe('paused');
  });

  it('answers 404 not_found to another workspace’s API key and changes nothing', async () => {
    const event = await liveBroadcastEvent();
    const other = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
    expect(await rejection(start(event.id, other))).toMatchObject({ status: 404, code: 'not_found' });
    await start(event.id);
    expect(await rejection(pause(event.id, other))).toMatchObject({ status: 404, code: 'not_found' });
    expect((await viewOf(event.id))?.status).toBe('live');
  });

  it('answers 404 not_found to a member of another workspace', async () => {
    const event = await liveBroadcastEvent();
    const stranger = await createAccount(t.databaseUrl, {
      workspaceId: (await createWorkspace(t.databaseUrl)).workspaceId,
    });
    const err = await rejection(start(event.id, t.client({ sessionToken: stranger.sessionToken })));
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('answers 404 not_found for an unknown event', async () => {
    expect(await rejection(start(crypto.randomUUID()))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await rejection(pause(crypto.randomUUID()))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('answers 401 unauthorized without credentials', async () => {
    const event = await liveBroadcastEvent();
    expect(await rejection(start(event.id, anon))).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(await rejection(pause(event.id, anon))).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('refuses a workspace session token (gcw_, a participant identity, not an account) with 403 forbidden', async () => {
    const event = await liveBroadcastEvent();
    const owner = t.client({ sessionToken: ws.sessionToken });
    const { sessionToken } = await owner.workspaces.createSession(ws.workspaceId);
    const err = await rejection(start(event.id, t.client({ sessionToken })));
    expect(err).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('refuses a session without a workspace account (an entry session) with 403 forbidden', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast' }], { visibility: 'public' });
    await anon.public.register(event.id, {
      name: 'Reg Istrant',
      email: `reg-${event.id.slice(0, 8)}@example.test`,
    });
    const emails = await mailboxOf(t, `reg-${event.id.slice(0, 8)}@example.test`);
    const token = new URL(emails[0]!.links[0]!).searchParams.get('token')!;
    const { sessionToken } = await anon.public.enter(event.id, { token });
    const err = await rejection(start(event.id, t.client({ sessionToken })));
    expect(err).toMatchObject({ status: 403, code: 'forbidden' });
    expect(await viewOf(event.id)).toBeNull();
  });
});

describe('HLS_BASE_URL', () => {
  it('builds playback URLs from HLS_BASE_URL when it is set', async () => {
    const custom = await startTestServer({ HLS_BASE_URL: 'https://cdn.example.test/live/' });
    try {
      const client = custom.client({ apiKey: (await createWorkspace(custom.databaseUrl)).apiKey });
      const event = await eventIn(client, 'live');
      const started = await client.broadcast.start(event.id);
      expect(started.playbackUrl).toBe(
        `https://cdn.example.test/live/evt_${started.eventId}_stage/index.m3u8`,
      );
    } finally {
      await custom.close();
    }
  });
});
