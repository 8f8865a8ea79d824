import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server';
import { signUp } from './support/accounts';
import { eventIn } from './support/events';
import { useServerAndReplica } from './support/hooks';
import { LiveClient, refusal, tokenFor } from './support/live';
import type { TestServer } from './support/server';

/*
 * A role taken away takes its powers with it, on every process: the membership's change closes the
 * holder's open sockets (4010) wherever they are, and a gateway token minted before the change is
 * refused, so the holder comes back only with a new token carrying the role it has now. A change that
 * leaves the holder's role in the socket's event as it was (a membership in another event) closes
 * nothing and refuses no token.
 */
let t: TestServer;
let replica: RunningServer;
let gc: GathercastClient;
useServerAndReplica((started) => {
  ({ t, replica, gc } = started);
});

const liveUrl = (server: RunningServer, token: string) =>
  `${server.url.replace('http', 'ws')}/v1/live?token=${encodeURIComponent(token)}`;

/** A live broadcast, an account invited as its host (a real membership), and the host's gateway token. */
async function invitedHost() {
  const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }], {
    visibility: 'unlisted',
  });
  const account = await signUp(t, 'host');
  const tokenNow = async () => account.client.gateway.token({ eventId: event.id });
  const { userId } = await t.server.gatewayTokens.verify((await tokenNow()).token);
  const membership = await gc.memberships.create(event.id, { userId: userId!, role: 'host' });
  const hostToken = await tokenNow();
  expect(hostToken.role).toBe('host');
  return { event, membership, hostToken: hostToken.token, tokenNow };
}

describe('a membership removed or changed', () => {
  it("closes the holder's sockets on the other process and refuses the token minted before it", async () => {
    const { event, membership, hostToken, tokenNow } = await invitedHost();
    const host = await LiveClient.join(replica, hostToken);
    expect(host.all('welcome')[0]!.identity.role).toBe('host');
    const viewer = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true }),
    );
    host.send({ type: 'announcement.send', text: 'still host' });
    await viewer.next('announcement', (m) => m.text === 'still host');

    await gc.memberships.delete(event.id, membership.id);
    expect(await host.closed).toBe(4010);

    // The same token, within its lifetime, on either process: refused, it predates the change.
    for (const server of [t.server, replica]) {
      const refused = await refusal(liveUrl(server, hostToken));
      expect([refused.status, refused.body.code]).toEqual([401, 'unauthorized']);
    }
    // A new token carries the role held now: audience, which may not show a banner.
    const now = await tokenNow();
    expect(now.role).toBe('viewer');
    const again = await LiveClient.join(replica, now.token);
    expect(again.all('welcome')[0]!.identity.role).toBe('viewer');
    again.send({ type: 'banner.show', text: 'not any more' });
    expect(await again.next('error')).toMatchObject({ code: 'forbidden' });
    for (const c of [viewer, again]) await c.close();
  });

  it('re-narrows a holder whose role changed: the socket closes and the new token has the new role', async () => {
    const { event, hostToken, tokenNow } = await invitedHost();
    const host = await LiveClient.join(t.server, hostToken);
    const { userId } = await t.server.gatewayTokens.verify(hostToken);
    await gc.memberships.create(event.id, { userId: userId!, role: 'speaker' });
    expect(await host.closed).toBe(4010);
    expect((await refusal(liveUrl(replica, hostToken))).status).toBe(401);
    const speaker = await LiveClient.join(replica, (await tokenNow()).token);
    expect(speaker.all('welcome')[0]!.identity.role).toBe('speaker');
    speaker.send({ type: 'announcement.send', text: 'speakers may not' });
    expect(await speaker.next('error')).toMatchObject({ code: 'forbidden' });
    await speaker.close();
  });

  /** Someone else's membership in an event, removed: once their socket closed, every earlier change was applied. */
  async function laterChangeApplied() {
    const other = await invitedHost();
    const socket = await LiveClient.join(replica, other.hostToken);
    await gc.memberships.delete(other.event.id, other.membership.id);
    expect(await socket.closed).toBe(4010);
  }

  const membershipElsewhere = async (userId: string) => {
    const other = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
    await gc.memberships.create(other.id, { userId, role: 'speaker' });
  };

  it('leaves the socket open and the token valid when the holder gets a membership in another event', async () => {
    const { hostToken } = await invitedHost();
    const host = await LiveClient.join(replica, hostToken);
    const { userId } = await t.server.gatewayTokens.verify(hostToken);
    await membershipElsewhere(userId!);
    await laterChangeApplied();
    expect(host.closeCode).toBeUndefined();
    const again = await LiveClient.join(t.server, hostToken);
    expect(again.all('welcome')[0]!.identity.role).toBe('host');
    for (const c of [host, again]) await c.close();
  });

  it('still closes the socket when, after a change elsewhere, the membership in this event is removed', async () => {
    const { event, membership, hostToken } = await invitedHost();
    const host = await LiveClient.join(replica, hostToken);
    const { userId } = await t.server.gatewayTokens.verify(hostToken);
    await membershipElsewhere(userId!);
    await gc.memberships.delete(event.id, membership.id);
    expect(await host.closed).toBe(4010);
    expect((await refusal(liveUrl(t.server, hostToken))).status).toBe(401);
  });
});
