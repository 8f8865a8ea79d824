import { setTimeout as delay } from 'node:timers/promises';
import type { GathercastClient } from '@gathercast/sdk';
import { TokenVerifier } from 'livekit-server-sdk';
import { describe, expect, it } from 'vitest';
import { eventIn } from './support/events';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, refusal, tokenFor } from './support/live';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
const livekit = { key: 'devkey', secret: 'devsecret_devsecret_devsecret_devsecret' };
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

const grantsOf = async (token: string | null) =>
  (await new TokenVerifier(livekit.key, livekit.secret).verify(token!)).video!;
const wsUrl = (q: string) => `${t.url.replace('http', 'ws')}/v1/live${q}`;

describe('live gateway: connecting', () => {
  it('refuses the upgrade without a token with 401 problem+json', async () => {
    const r = await refusal(wsUrl(''));
    expect(r.status).toBe(401);
    expect(r.type).toContain('application/problem+json');
    expect(r.body).toMatchObject({
      code: 'unauthorized',
      type: expect.stringMatching(/\/docs\/errors\/unauthorized$/),
    });
  });

  it('refuses a forged or expired token with 401', async () => {
    const event = await eventIn(gc, 'live');
    expect((await refusal(wsUrl('?token=not-a-jwt'))).status).toBe(401);
    const expired = await t.server.gatewayTokens.sign(
      {
        eventId: event.id,
        participantId: 'anon:x',
        userId: null,
        name: null,
        role: 'viewer',
        storedRole: 'viewer',
        anonymous: true,
        via: 'anonymous',
      },
      Date.now() - 6 * 60_000,
    );
    expect((await refusal(wsUrl(`?token=${expired.token}`))).status).toBe(401);
  });

  it('refuses other paths with 404', async () => {
    expect((await refusal(`${t.url.replace('http', 'ws')}/v1/elsewhere`)).status).toBe(404);
  });

  it('welcomes a host first, with identity, event, phase, cast and a stage admin grant', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast' }], { title: 'Launch day' });
    const hana = await gc.users.upsert({ externalSub: 'hana', name: 'Hana Host' });
    await gc.memberships.create(event.id, { userId: hana.id, role: 'host' });
    const sam = await gc.users.upsert({ externalSub: 'sam', name: 'Sam Speaker' });
    await gc.memberships.create(event.id, { userId: sam.id, role: 'speaker' });
    const full = await gc.events.retrieve(event.id);
    const client = await LiveClient.connect(
      t.server,
      await tokenFor(t.server, event.id, { role: 'host', userId: hana.id, name: 'Hana Host' }),
    );
    const welcome = await client.next('welcome');
    expect(client.messages[0]!.type).toBe('welcome');
    expect(welcome).toMatchObject({
      identity: { participantId: `user:${hana.id}`, name: 'Hana Host', role: 'host', anonymous: false },
      event: { id: event.id, title: 'Launch day', status: 'live' },
      activePhase: {
        id: full.phases[0]!.id,
        position: full.phases[0]!.position,
        modality: 'broadcast',
        status: 'active',
      },
      cast: [
        { name: 'Hana Host', role: 'host' },
        { name: 'Sam Speaker', role: 'speaker' },
      ],
      lobby: false,
      media: {
        room: `evt_${event.id}_stage`,
        canPublish: true,
        canSubscribe: true,
        roomAdmin: true,
        playbackUrl: null,
      },
    });
    const video = await grantsOf(welcome.media.token);
    expect(video).toMatchObject({
      room: `evt_${event.id}_stage`,
      roomJoin: true,
      canPublish: true,
      canSubscribe: true,
      roomAdmin: true,
    });
    await client.close();
  });

  it('gives a speaker a stage seat without roomAdmin', async () => {
    const event = await eventIn(gc, 'live');
    const client = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'speaker' }));
    const welcome = client.all('welcome')[0]!;
    expect(welcome.media).toMatchObject({ canPublish: true, roomAdmin: false });
    expect(await grantsOf(welcome.media.token)).toMatchObject({ canPublish: true, roomAdmin: false });
    await client.close();
  });

  it('gives a viewer no media seat but the HLS playback URL', async () => {
    const event = await eventIn(gc, 'live');
    const client = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true }),
    );
    const { media, identity } = client.all('welcome')[0]!;
    expect(identity).toMatchObject({ role: 'viewer', anonymous: true, name: null });
    expect(identity.participantId).toMatch(/^anon:/);
    expect(media).toMatchObject({
      token: null,
      room: null,
      canPublish: false,
      canSubscribe: false,
      roomAdmin: false,
    });
    expect(media.playbackUrl).toBe(`${t.url}/hls/evt_${event.id}_stage/index.m3u8`);
    await client.close();
  });

  it('narrows a participant to viewer in a broadcast phase and to a call seat in a meeting', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast' }, { modality: 'meeting' }]);
    const client = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'participant' }),
    );
    expect(client.all('welcome')[0]).toMatchObject({ identity: { role: 'viewer' }, media: { token: null } });
    await client.close();
    const meeting = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    const member = await LiveClient.join(
      t.server,
      await tokenFor(t.server, meeting.id, { role: 'participant', via: 'entry' }),
    );
    const { media, identity } = member.all('welcome')[0]!;
    expect(identity.role).toBe('participant');
    expect(await grantsOf(media.token)).toMatchObject({
      room: `evt_${meeting.id}_stage`,
      canPublish: true,
      canSubscribe: true,
      roomAdmin: false,
    });
    await member.close();
  });

  it('answers ping with pong', async () => {
    const event = await eventIn(gc, 'live');
    const client = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true }),
    );
    client.send({ type: 'ping' });
    await client.next('pong');
    await client.close();
  });

  it('answers a malformed message with bad_request and keeps the connection open', async () => {
    const event = await eventIn(gc, 'live');
    const client = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true }),
    );
    client.send('{not json');
    expect(await client.next('error')).toMatchObject({ code: 'bad_request' });
    client.send({ type: 'teleport' });
    expect(await client.next('error')).toMatchObject({ code: 'bad_request' });
    client.send({ type: 'chat.send', text: '' });
    expect(await client.next('error')).toMatchObject({
      code: 'bad_request',
      detail: expect.stringContaining('text'),
    });
    client.send({ type: 'ping' });
    await client.next('pong');
    await client.close();
  });

  it('answers a host-only message from a viewer with forbidden', async () => {
    const event = await eventIn(gc, 'live');
    const client = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true }),
    );
    client.send({ type: 'banner.show', text: 'Hijack' });
    expect(await client.next('error')).toMatchObject({ code: 'forbidden' });
    client.send({ type: 'ping' });
    await client.next('pong');
    expect(client.all('banner')).toEqual([]);
    await client.close();
  });

  it('tells a socket of an ended event so and closes it with 4009', async () => {
    const event = await eventIn(gc, 'ended');
    const client = await LiveClient.connect(t.server, await tokenFor(t.server, event.id, { role: 'host' }));
    expect(await client.next('error')).toMatchObject({ code: 'invalid_state' });
    expect(await client.closed).toBe(4009);
  });

  it('answers a flood of messages with rate_limited and keeps serving once it slows down', async () => {
    const event = await eventIn(gc, 'live');
    const client = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true }),
    );
    for (let i = 0; i < 40; i++) client.send({ type: 'ping' });
    expect(await client.next('error')).toMatchObject({ code: 'rate_limited' });
    // The client slows down (the subject, not a wait for something): the rate bucket refills meanwhile.
    await delay(1200);
    client.send({ type: 'ping' });
    await client.next('pong', () => true);
    expect(client.all('pong').length).toBeGreaterThanOrEqual(20);
    expect(client.all('pong').length).toBeLessThan(40);
    await client.close();
  });
});
