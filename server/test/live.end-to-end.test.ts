import { type GathercastClient, LiveConnection, type WebSocketConstructor } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type SignedUp, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

// The whole path an integrator takes: a gateway token from the API, then the SDK's LiveConnection.
let t: TestServer;
let owner: SignedUp;
let gc: GathercastClient;
useTestServer({}, async (started) => {
  t = started;
  owner = await signUp(t, 'owner', 'Olive Owner');
  gc = owner.client;
});

const open = (url: string) =>
  LiveConnection.open(url, { WebSocket: WebSocket as unknown as WebSocketConstructor });

async function liveEvent(modalities: ('broadcast' | 'meeting')[], featureSet: 'qa'[] = []) {
  const event = await gc.events.create({
    type: 'webinar',
    title: 'Launch',
    visibility: 'public',
    phases: modalities.map((modality) => ({ modality, featureSet })),
  });
  await gc.events.publish(event.id);
  await gc.events.start(event.id);
  return event;
}

describe('live plane end to end: gateway token → SDK LiveConnection', () => {
  it('lets an anonymous viewer watch a public broadcast on the playlist the broadcast announces', async () => {
    const event = await liveEvent(['broadcast']);
    const token = await t.client().gateway.token({ eventId: event.id });
    expect(token).toMatchObject({ role: 'viewer', anonymous: true });
    const live = await open(token.url);
    try {
      expect(live.welcome.identity).toMatchObject({ role: 'viewer', anonymous: true });
      expect(live.welcome.event).toEqual({ id: event.id, title: 'Launch', status: 'live' });
      expect(live.welcome.media).toMatchObject({ token: null, canPublish: false });
      const broadcast = await gc.broadcast.start(event.id);
      expect(live.welcome.media.playbackUrl).toBe(broadcast.playbackUrl);
      const view = await t.client().public.retrieveEvent(event.id);
      expect(view.activeBroadcast?.playbackUrl).toBe(broadcast.playbackUrl);
    } finally {
      await live.close();
    }
  });

  it('greets the owner as host with the stage grant, and shows a question to everyone and in the API', async () => {
    const event = await liveEvent(['broadcast'], ['qa']);
    const hostToken = await gc.gateway.token({ eventId: event.id });
    expect(hostToken.role).toBe('host');
    const host = await open(hostToken.url);
    const viewer = await open((await t.client().gateway.token({ eventId: event.id })).url);
    try {
      expect(host.welcome.identity).toMatchObject({ name: 'Olive Owner', role: 'host', anonymous: false });
      expect(host.welcome.media).toMatchObject({
        canPublish: true,
        roomAdmin: true,
        room: `evt_${event.id}_stage`,
      });
      const seen = viewer.next('question.created');
      host.send({ type: 'question.create', text: 'Can everyone hear me?' });
      expect((await seen).question.text).toBe('Can everyone hear me?');
      const { questions } = await gc.questions.list(event.id);
      expect(questions.map((q) => q.text)).toEqual(['Can everyone hear me?']);
    } finally {
      await host.close();
      await viewer.close();
    }
  });

  it('reads a stored speaker as participant in a call and as speaker again on the next broadcast stage', async () => {
    const event = await liveEvent(['meeting', 'broadcast']);
    const guest = await signUp(t, 'speaker', 'Sam Speaker');
    // The first token makes the account's participant identity in the workspace; then it gets a role.
    await guest.client.gateway.token({ eventId: event.id });
    const { users } = await gc.users.list();
    const sam = users.find((u) => u.name === 'Sam Speaker')!;
    await gc.memberships.create(event.id, { userId: sam.id, role: 'speaker' });

    const token = await guest.client.gateway.token({ eventId: event.id });
    expect(token.role).toBe('participant');
    const live = await open(token.url);
    try {
      expect(live.welcome.identity.role).toBe('participant');
      expect(live.welcome.media).toMatchObject({ canPublish: true, room: `evt_${event.id}_stage` });
      const changed = live.next('phase.changed');
      await gc.events.advance(event.id, {});
      const { media } = await changed;
      expect(media).toMatchObject({ canPublish: true, roomAdmin: false, room: `evt_${event.id}_stage` });
    } finally {
      await live.close();
    }
  });
});
