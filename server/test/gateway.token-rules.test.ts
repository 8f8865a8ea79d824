import { randomUUID } from 'node:crypto';
import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { liveUrl } from '../src/gateway/gateway-token-service';
import type { GatewayClaims } from '../src/gateway/tokens';
import { mailboxOf, signUp } from './support/accounts';
import { eventIn, rejection } from './support/events';
import { createAccount, createWorkspace, type WorkspaceFixture } from './support/fixtures';
import { useServerWithGuestPartner } from './support/hooks';
import { newPartner, type Partner } from './support/partner';
import type { TestServer } from './support/server';

let t: TestServer;
let ws: WorkspaceFixture;
let gc: GathercastClient;
let anon: GathercastClient;
let partner: Partner;
useServerWithGuestPartner((started) => {
  ({ t, ws, gc, anon, partner } = started);
});

type Modality = 'broadcast' | 'meeting' | 'breakout' | 'rotation';
const event = (
  status: 'draft' | 'scheduled' | 'live' | 'ended',
  modalities: Modality[],
  visibility: 'public' | 'unlisted' | 'private' = 'public',
) =>
  eventIn(
    gc,
    status,
    modalities.map((modality) =>
      modality === 'rotation' ? { modality, config: { rounds: 2, roundSeconds: 60 } } : { modality },
    ),
    { visibility },
  );

const tokenFor = (client: GathercastClient, eventId: string) => client.gateway.token({ eventId });
const claimsOf = (token: string): Promise<GatewayClaims> => t.server.gatewayTokens.verify(token);
const expectCode = async (call: Promise<unknown>, status: number, code: string) => {
  const err = await rejection(call);
  expect([err.status, err.code]).toEqual([status, code]);
};

describe('gateway token without a session', () => {
  it('issues an anonymous viewer token for a public broadcast, with the live URL', async () => {
    const e = await event('live', ['broadcast']);
    const answer = await tokenFor(anon, e.id);
    expect(answer).toMatchObject({ role: 'viewer', anonymous: true });
    expect(answer.url).toBe(
      `${t.url.replace(/^http/, 'ws')}/v1/live?token=${encodeURIComponent(answer.token)}`,
    );
    const lifetime = new Date(answer.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(4 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000);
    const claims = await claimsOf(answer.token);
    expect(claims).toMatchObject({
      eventId: e.id,
      userId: null,
      name: null,
      role: 'viewer',
      anonymous: true,
      via: 'anonymous',
    });
    expect(claims.participantId).toMatch(/^anon:[0-9a-f-]{36}$/);
  });

  it('gives each anonymous token its own participant id', async () => {
    const e = await event('scheduled', ['broadcast']);
    const a = await claimsOf((await tokenFor(anon, e.id)).token);
    const b = await claimsOf((await tokenFor(anon, e.id)).token);
    expect(a.participantId).not.toBe(b.participantId);
  });

  it('treats an unlisted broadcast like a public one', async () => {
    const e = await event('scheduled', ['broadcast'], 'unlisted');
    expect(await tokenFor(anon, e.id)).toMatchObject({ role: 'viewer', anonymous: true });
  });

  it.each(['meeting', 'breakout', 'rotation'] as const)(
    'refuses a %s with 401 sign_in_required',
    async (modality) => {
      const e = await event('live', [modality]);
      await expectCode(tokenFor(anon, e.id), 401, 'sign_in_required');
    },
  );

  it('follows the active phase: viewer during the broadcast, sign_in_required in the breakout', async () => {
    const e = await event('scheduled', ['broadcast', 'breakout']);
    expect((await tokenFor(anon, e.id)).role).toBe('viewer');
    await gc.events.start(e.id);
    expect((await tokenFor(anon, e.id)).role).toBe('viewer');
    await gc.events.advance(e.id, {});
    await expectCode(tokenFor(anon, e.id), 401, 'sign_in_required');
  });

  it('answers 404 for a private event, a draft and an unknown id', async () => {
    await expectCode(tokenFor(anon, (await event('live', ['broadcast'], 'private')).id), 404, 'not_found');
    await expectCode(tokenFor(anon, (await event('draft', ['broadcast'])).id), 404, 'not_found');
    await expectCode(tokenFor(anon, randomUUID()), 404, 'not_found');
  });

  it('does not reveal a private call event either (404, not sign_in_required)', async () => {
    await expectCode(tokenFor(anon, (await event('live', ['meeting'], 'private')).id), 404, 'not_found');
  });

  it('refuses an ended event with 409 invalid_state', async () => {
    await expectCode(tokenFor(anon, (await event('ended', ['broadcast'])).id), 409, 'invalid_state');
  });

  it('refuses an event without phases with 409 invalid_state', async () => {
    const e = await eventIn(gc, 'scheduled', [], { visibility: 'public' });
    await expectCode(tokenFor(anon, e.id), 409, 'invalid_state');
  });

  it('refuses an unknown Bearer token with 401 unauthorized instead of going anonymous', async () => {
    const e = await event('live', ['broadcast']);
    await expectCode(tokenFor(t.client({ sessionToken: 'gcs_unknown' }), e.id), 401, 'unauthorized');
  });

  it('refuses a missing eventId with 400 bad_request', async () => {
    await expectCode(anon.gateway.token({} as never), 400, 'bad_request');
  });
});

describe('gateway token with an account session', () => {
  const member = async (role: 'owner' | 'admin' | 'member') => {
    const a = await createAccount(t.databaseUrl, { workspaceId: ws.workspaceId, role });
    return t.client({ sessionToken: a.sessionToken });
  };

  it('makes owners and admins hosts, with their bridged user as identity', async () => {
    const e = await event('live', ['meeting'], 'private');
    const owner = t.client({ sessionToken: ws.sessionToken });
    const answer = await tokenFor(owner, e.id);
    expect(answer).toMatchObject({ role: 'host', anonymous: false });
    const claims = await claimsOf(answer.token);
    expect(claims).toMatchObject({
      eventId: e.id,
      role: 'host',
      anonymous: false,
      via: 'account',
      name: ws.accountName,
    });
    expect(claims.participantId).toBe(`user:${claims.userId}`);
    const bridged = await owner.workspaces.createSession(ws.workspaceId);
    expect(claims.userId).toBe(bridged.participant.id);
    expect((await tokenFor(await member('admin'), e.id)).role).toBe('host');
  });

  it('lets owners join a draft (rehearsal), which the public cannot see', async () => {
    const e = await event('draft', ['broadcast']);
    expect((await tokenFor(t.client({ sessionToken: ws.sessionToken }), e.id)).role).toBe('host');
  });

  it('gives members without a stored role the audience role: viewer on broadcasts, participant on calls', async () => {
    const m = await member('member');
    expect((await tokenFor(m, (await event('live', ['broadcast'], 'private')).id)).role).toBe('viewer');
    expect((await tokenFor(m, (await event('live', ['meeting'], 'private')).id)).role).toBe('participant');
  });

  it('uses the stored event role, narrowed to the current modality', async () => {
    const a = await createAccount(t.databaseUrl, { workspaceId: ws.workspaceId, role: 'member' });
    const m = t.client({ sessionToken: a.sessionToken });
    const broadcastThenMeeting = await event('live', ['broadcast', 'meeting'], 'private');
    const { userId } = await claimsOf((await tokenFor(m, broadcastThenMeeting.id)).token);
    await gc.memberships.create(broadcastThenMeeting.id, { userId: userId!, role: 'speaker' });
    expect((await tokenFor(m, broadcastThenMeeting.id)).role).toBe('speaker');
    await gc.events.advance(broadcastThenMeeting.id, {});
    expect((await tokenFor(m, broadcastThenMeeting.id)).role).toBe('participant');
  });

  it('lets a stored role override the owner default', async () => {
    const e = await event('live', ['broadcast'], 'private');
    const owner = t.client({ sessionToken: ws.sessionToken });
    const { userId } = await claimsOf((await tokenFor(owner, e.id)).token);
    await gc.memberships.create(e.id, { userId: userId!, role: 'workspace_admin' });
    expect((await tokenFor(owner, e.id)).role).toBe('workspace_admin');
  });

  it('treats a signed-in outsider as audience on a public event and hides private ones (404)', async () => {
    const outsider = await signUp(t, 'outsider');
    expect((await tokenFor(outsider.client, (await event('live', ['broadcast'])).id)).role).toBe('viewer');
    expect((await tokenFor(outsider.client, (await event('live', ['meeting'])).id)).role).toBe('participant');
    await expectCode(
      tokenFor(outsider.client, (await event('live', ['broadcast'], 'private')).id),
      404,
      'not_found',
    );
    await expectCode(tokenFor(outsider.client, (await event('draft', ['broadcast'])).id), 404, 'not_found');
  });

  it('admits an outsider with a stored role to a private event', async () => {
    const outsider = await signUp(t, 'invited');
    const open = await event('live', ['broadcast']);
    const { userId } = await claimsOf((await tokenFor(outsider.client, open.id)).token);
    const priv = await event('live', ['broadcast'], 'private');
    await gc.memberships.create(priv.id, { userId: userId!, role: 'speaker' });
    expect((await tokenFor(outsider.client, priv.id)).role).toBe('speaker');
  });
});

describe('gateway token with a workspace session', () => {
  it("carries the bridged user's identity and role; owners are hosts", async () => {
    const owner = t.client({ sessionToken: ws.sessionToken });
    const bridged = await owner.workspaces.createSession(ws.workspaceId);
    const e = await event('live', ['meeting'], 'private');
    const answer = await tokenFor(t.client({ sessionToken: bridged.sessionToken }), e.id);
    expect(answer.role).toBe('host');
    expect(await claimsOf(answer.token)).toMatchObject({
      userId: bridged.participant.id,
      participantId: `user:${bridged.participant.id}`,
      via: 'workspace',
    });
  });

  it("gives a member's workspace session its stored role", async () => {
    const a = await createAccount(t.databaseUrl, { workspaceId: ws.workspaceId, role: 'member' });
    const bridged = await t.client({ sessionToken: a.sessionToken }).workspaces.createSession(ws.workspaceId);
    const e = await event('live', ['broadcast'], 'private');
    await gc.memberships.create(e.id, { userId: bridged.participant.id, role: 'host' });
    const session = t.client({ sessionToken: bridged.sessionToken });
    expect((await tokenFor(session, e.id)).role).toBe('host');
    expect((await tokenFor(session, (await event('live', ['broadcast'], 'private')).id)).role).toBe('viewer');
  });

  it("answers 404 for another workspace's event", async () => {
    const other = await createWorkspace(t.databaseUrl);
    const theirs = await eventIn(t.client({ apiKey: other.apiKey }), 'live', [{ modality: 'broadcast' }], {
      visibility: 'public',
    });
    const bridged = await t
      .client({ sessionToken: ws.sessionToken })
      .workspaces.createSession(ws.workspaceId);
    await expectCode(tokenFor(t.client({ sessionToken: bridged.sessionToken }), theirs.id), 404, 'not_found');
  });
});

describe('gateway token with a guest session', () => {
  const guestOf = async (eventId: string, claims: Record<string, unknown> = {}) =>
    anon.gateway.guestSession(eventId, { token: await partner.sign(claims) });

  it('makes a guest a participant on a call, named from the JWT', async () => {
    const e = await event('live', ['meeting'], 'private');
    const guest = await guestOf(e.id, { name: 'Gus Guest' });
    const answer = await tokenFor(t.client({ sessionToken: guest.sessionToken }), e.id);
    expect(answer).toMatchObject({ role: 'participant', anonymous: false });
    const claims = await claimsOf(answer.token);
    expect(claims).toMatchObject({ userId: null, name: 'Gus Guest', via: 'guest', anonymous: false });
    expect(claims.participantId).toMatch(/^guest:[0-9a-f-]{36}$/);
  });

  it('makes a guest a viewer on a broadcast', async () => {
    const e = await event('scheduled', ['broadcast']);
    const guest = await guestOf(e.id);
    expect((await tokenFor(t.client({ sessionToken: guest.sessionToken }), e.id)).role).toBe('viewer');
  });

  it('answers 404 for any other event', async () => {
    const mine = await event('live', ['meeting']);
    const other = await event('live', ['meeting']);
    const guest = await guestOf(mine.id);
    await expectCode(tokenFor(t.client({ sessionToken: guest.sessionToken }), other.id), 404, 'not_found');
  });

  it('keeps working after its integration is revoked', async () => {
    const p = await newPartner();
    const integration = await gc.guestIntegrations.create(ws.workspaceId, {
      issuer: p.issuer,
      publicKeyPem: p.publicKeyPem,
    });
    const e = await event('live', ['meeting']);
    const guest = await anon.gateway.guestSession(e.id, { token: await p.sign() });
    await gc.guestIntegrations.delete(ws.workspaceId, integration.id);
    expect((await tokenFor(t.client({ sessionToken: guest.sessionToken }), e.id)).role).toBe('participant');
  });

  it('stops working once the event ends (401 unauthorized)', async () => {
    const e = await event('live', ['meeting']);
    const guest = await guestOf(e.id);
    await gc.events.end(e.id);
    await expectCode(tokenFor(t.client({ sessionToken: guest.sessionToken }), e.id), 401, 'unauthorized');
  });
});

describe('gateway token with an entry session', () => {
  const entrySession = async (eventId: string) => {
    const email = `registrant-${randomUUID().slice(0, 8)}@example.test`;
    await anon.public.register(eventId, { name: 'Rita Registrant', email });
    const [mail] = await mailboxOf(t, email);
    const token = new URL(mail!.links[0]!).searchParams.get('token')!;
    return anon.public.enter(eventId, { token });
  };

  it('makes a registrant a viewer on a broadcast and a participant on a call', async () => {
    const broadcast = await event('scheduled', ['broadcast']);
    const entered = await entrySession(broadcast.id);
    const answer = await tokenFor(t.client({ sessionToken: entered.sessionToken }), broadcast.id);
    expect(answer.role).toBe('viewer');
    const claims = await claimsOf(answer.token);
    expect(claims).toMatchObject({ name: 'Rita Registrant', via: 'entry', userId: null, anonymous: false });
    expect(claims.participantId).toMatch(/^entry:[0-9a-f-]{36}$/);
    const meeting = await event('scheduled', ['meeting']);
    const inMeeting = await entrySession(meeting.id);
    expect((await tokenFor(t.client({ sessionToken: inMeeting.sessionToken }), meeting.id)).role).toBe(
      'participant',
    );
  });

  it('answers 404 for any other event', async () => {
    const mine = await event('scheduled', ['broadcast']);
    const entered = await entrySession(mine.id);
    const other = await event('scheduled', ['broadcast']);
    await expectCode(tokenFor(t.client({ sessionToken: entered.sessionToken }), other.id), 404, 'not_found');
  });
});

describe('live URL', () => {
  it('uses wss for an https base URL and keeps its path prefix', () => {
    expect(liveUrl('https://api.example.com/base/', 'a.b+c')).toBe(
      'wss://api.example.com/base/v1/live?token=a.b%2Bc',
    );
    expect(liveUrl('http://localhost:3000', 'x')).toBe('ws://localhost:3000/v1/live?token=x');
  });
});
