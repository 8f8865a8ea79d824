import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn, rejection } from './support/events';
import type { WorkspaceFixture } from './support/fixtures';
import { useServerWithGuestPartner } from './support/hooks';
import { LiveClient } from './support/live';
import type { Partner } from './support/partner';
import type { TestServer } from './support/server';

/*
 * Server-minted live access: a backend with an API key puts its own users in the live room, with
 * their stored roles or a role it names, through short-lived tokens or personal join links.
 */
let t: TestServer;
let ws: WorkspaceFixture;
let gc: GathercastClient;
let anon: GathercastClient;
let partner: Partner;
useServerWithGuestPartner((started) => {
  ({ t, ws, gc, anon, partner } = started);
});

const broadcast = () => eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
const expectCode = async (call: Promise<unknown>, status: number, code: string) => {
  const err = await rejection(call);
  expect([err.status, err.code]).toEqual([status, code]);
  return err;
};
const welcomeOf = async (url: string) => {
  const client = await LiveClient.join(t.server, new URL(url).searchParams.get('token')!);
  const welcome = client.all('welcome')[0]!;
  await client.close();
  return welcome;
};

describe('minting a gateway token from a backend', () => {
  it('upserts a user by externalSub with a name and puts them on stage as host', async () => {
    const event = await broadcast();
    const minted = await gc.live.tokens.create(event.id, {
      user: { externalSub: 'crm-host-1', name: 'Hana Host' },
      role: 'host',
    });
    expect(minted).toMatchObject({ role: 'host', storedRole: 'host', anonymous: false });
    const users = await gc.users.list();
    const user = users.users.find((u) => u.externalSub === 'crm-host-1')!;
    expect(user.name).toBe('Hana Host');
    expect(minted.participantId).toBe(`user:${user.id}`);
    const welcome = await welcomeOf(minted.url);
    expect(welcome.identity).toMatchObject({
      participantId: `user:${user.id}`,
      name: 'Hana Host',
      role: 'host',
    });
  });

  it('carries the user’s stored event role when no role is named', async () => {
    const event = await broadcast();
    const user = await gc.users.upsert({ externalSub: 'crm-speaker-1', name: 'Sam Speaker' });
    await gc.memberships.create(event.id, { userId: user.id, role: 'speaker' });
    const minted = await gc.live.tokens.create(event.id, { user: { id: user.id } });
    expect([minted.role, minted.storedRole]).toEqual(['speaker', 'speaker']);
    const plain = await gc.users.upsert({ externalSub: 'crm-viewer-1' });
    const audience = await gc.live.tokens.create(event.id, { user: { id: plain.id } });
    expect([audience.role, audience.storedRole]).toEqual(['viewer', 'participant']);
  });

  it('refuses a role the event has no place for, naming the roles the caller can give', async () => {
    const event = await broadcast();
    const err = await expectCode(
      gc.live.tokens.create(event.id, { identity: { id: 'x1' }, role: 'participant' }),
      400,
      'role_not_on_event',
    );
    expect(err.detail).toContain('host, speaker');
  });

  it('mints for an ad-hoc identity of the backend, without a stored user', async () => {
    const event = await broadcast();
    const minted = await gc.live.tokens.create(event.id, { identity: { id: 'visitor-42', name: 'Vic' } });
    expect(minted).toMatchObject({ participantId: 'ext:visitor-42', userId: null, role: 'viewer' });
    expect((await welcomeOf(minted.url)).identity).toMatchObject({
      participantId: 'ext:visitor-42',
      name: 'Vic',
    });
  });

  it('answers 404 for another workspace’s event and for an unknown user', async () => {
    const event = await broadcast();
    await expectCode(gc.live.tokens.create(event.id, { user: { id: ws.workspaceId } }), 404, 'not_found');
    await expectCode(anon.live.tokens.create(event.id, { identity: { id: 'a' } }), 401, 'unauthorized');
  });

  it('refuses an API key on POST /v1/auth/gateway-token with 403, naming the route that mints', async () => {
    const event = await broadcast();
    const err = await expectCode(gc.gateway.token({ eventId: event.id }), 403, 'forbidden');
    expect(err.detail).toContain(`/v1/events/${event.id}/live-tokens`);
  });
});

describe('personal join links', () => {
  it('answers a fresh token to anyone holding the link, until it is revoked', async () => {
    const event = await broadcast();
    const link = await gc.live.joinLinks.create(event.id, {
      user: { externalSub: 'crm-guest-7', name: 'Gia' },
      role: 'speaker',
    });
    expect(link.joinUrl).toMatch(new RegExp(`^${t.url}/v1/join/gcj_`));
    const code = link.joinUrl.split('/').pop()!;
    const opened = await anon.live.joinLinks.retrieveOpen(code);
    expect(opened).toMatchObject({ participantId: link.participantId, role: 'speaker' });
    expect((await welcomeOf(opened.url)).identity).toMatchObject({ name: 'Gia', role: 'speaker' });
    const plain = await fetch(link.joinUrl);
    expect([plain.status, plain.headers.get('cache-control')]).toEqual([200, 'no-store']);
    await gc.live.joinLinks.delete(event.id, link.id);
    await expectCode(anon.live.joinLinks.retrieveOpen(code), 404, 'not_found');
  });
});

describe('partner guests who are workspace users', () => {
  it('gives a guest whose sub is a user’s externalSub that user’s identity and stored role', async () => {
    const event = await broadcast();
    const user = await gc.users.upsert({ externalSub: 'partner-host-1', name: 'Pia' });
    await gc.memberships.create(event.id, { userId: user.id, role: 'host' });
    const guest = await anon.gateway.guestSession(event.id, {
      token: await partner.sign({ sub: 'partner-host-1', name: 'Pia' }),
    });
    const answer = await t.client({ sessionToken: guest.sessionToken }).gateway.token({ eventId: event.id });
    expect(answer.role).toBe('host');
    expect((await welcomeOf(answer.url)).identity).toMatchObject({
      participantId: `user:${user.id}`,
      role: 'host',
    });
    const stranger = await anon.gateway.guestSession(event.id, {
      token: await partner.sign({ sub: 'not-a-user' }),
    });
    const other = await t
      .client({ sessionToken: stranger.sessionToken })
      .gateway.token({ eventId: event.id });
    expect(other.role).toBe('viewer');
  });
});

describe('a banned participant', () => {
  it('gets no token from the backend, no join link token and none for their own session', async () => {
    const event = await broadcast();
    const user = await gc.users.upsert({ externalSub: 'crm-banned-1' });
    const guest = await anon.gateway.guestSession(event.id, {
      token: await partner.sign({ sub: 'crm-banned-1' }),
    });
    const link = await gc.live.joinLinks.create(event.id, { user: { id: user.id } });
    await gc.live.participants.ban(event.id, `user:${user.id}`, {});
    await expectCode(gc.live.tokens.create(event.id, { user: { id: user.id } }), 403, 'forbidden');
    await expectCode(anon.live.joinLinks.retrieveOpen(link.joinUrl.split('/').pop()!), 403, 'forbidden');
    await expectCode(
      t.client({ sessionToken: guest.sessionToken }).gateway.token({ eventId: event.id }),
      403,
      'forbidden',
    );
  });
});
