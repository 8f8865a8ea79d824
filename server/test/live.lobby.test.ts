import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server';
import { eventIn } from './support/events';
import { useServerAndReplica } from './support/hooks';
import { LiveClient, recorded, tokenFor } from './support/live';
import type { TestServer } from './support/server';

let t: TestServer;
let replica: RunningServer;
let gc: GathercastClient;
useServerAndReplica((started) => {
  ({ t, replica, gc } = started);
});

let n = 0;
/** A signed-in person with an identity in the workspace but no membership of the event (a walk-in). */
async function walkIn(eventId: string, name = `Walker ${++n}`) {
  const user = await gc.users.upsert({ externalSub: `walk-${n}-${Date.now()}`, name });
  const token = await tokenFor(t.server, eventId, {
    role: 'participant',
    userId: user.id,
    name,
    via: 'account',
  });
  return { user, token };
}
const hostOf = async (eventId: string) =>
  LiveClient.join(t.server, await tokenFor(t.server, eventId, { role: 'host' }));
const joinedOf = (eventId: string) => recorded(t.databaseUrl, eventId, 'participant.joined');

describe('meeting lobby', () => {
  it('keeps a walk-in waiting until a host (on another process) admits them; joined fires only then', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting', featureSet: ['chat'] }]);
    const host = await hostOf(event.id);
    const { user, token } = await walkIn(event.id, 'Wanda');
    const waiter = await LiveClient.join(replica, token);
    expect(waiter.all('welcome')[0]).toMatchObject({ lobby: true, media: { token: null, room: null } });
    const waiting = await host.next('lobby.waiting');
    expect(waiting.participant).toEqual({
      participantId: `user:${user.id}`,
      name: 'Wanda',
      role: 'participant',
      anonymous: false,
    });
    waiter.send({ type: 'chat.send', text: 'let me in' });
    expect(await waiter.next('error')).toMatchObject({ code: 'forbidden' });
    expect((await joinedOf(event.id)).map((p) => p.participantId)).not.toContain(`user:${user.id}`);

    host.send({ type: 'lobby.admit', participantId: `user:${user.id}` });
    const admitted = await waiter.next('lobby.admitted');
    expect(admitted.media).toMatchObject({
      room: `evt_${event.id}_stage`,
      canPublish: true,
      canSubscribe: true,
    });
    expect(admitted.media.token).toEqual(expect.any(String));
    await host.next('presence.joined', (m) => m.participant.participantId === `user:${user.id}`);
    expect((await joinedOf(event.id)).filter((p) => p.participantId === `user:${user.id}`)).toEqual([
      { participantId: `user:${user.id}`, userId: user.id, anonymous: false, role: 'participant' },
    ]);
    waiter.send({ type: 'chat.send', text: 'thanks' });
    expect(await host.next('chat.message')).toMatchObject({ text: 'thanks' });
    await waiter.close();
    // Admission holds for a reconnect.
    const again = await LiveClient.join(t.server, token);
    expect(again.all('welcome')[0]).toMatchObject({ lobby: false });
    await again.close();
    await host.close();
  });

  it('turns a denied walk-in away for good: lobby.denied, close 4003, never a participant', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    const { user, token } = await walkIn(event.id);
    const waiter = await LiveClient.join(t.server, token);
    // A host connecting later sees who is waiting.
    const host = await hostOf(event.id);
    expect((await host.next('lobby.waiting')).participant.participantId).toBe(`user:${user.id}`);
    host.send({ type: 'lobby.deny', participantId: `user:${user.id}` });
    await waiter.next('lobby.denied');
    expect(await waiter.closed).toBe(4003);
    const back = await LiveClient.connect(t.server, token);
    await back.next('lobby.denied');
    expect(await back.closed).toBe(4003);
    expect((await joinedOf(event.id)).map((p) => p.participantId)).not.toContain(`user:${user.id}`);
    expect(
      (await recorded(t.databaseUrl, event.id, 'participant.left')).map((p) => p.participantId),
    ).not.toContain(`user:${user.id}`);
    await host.close();
  });

  it('keeps a signed-in account with no identity in the workspace waiting too', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    const token = await tokenFor(t.server, event.id, {
      role: 'participant',
      userId: null,
      participantId: 'account:stranger',
      name: 'Stranger',
      via: 'account',
    });
    const waiter = await LiveClient.join(t.server, token);
    expect(waiter.all('welcome')[0]).toMatchObject({ lobby: true });
    await waiter.close();
  });

  it('lets members of the event in straight away', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    const { user } = await walkIn(event.id);
    await gc.memberships.create(event.id, { userId: user.id, role: 'participant' });
    // A token minted after the membership (one from before it is refused: its roles changed since).
    const token = await tokenFor(t.server, event.id, {
      role: 'participant',
      userId: user.id,
      via: 'account',
    });
    const member = await LiveClient.join(t.server, token);
    expect(member.all('welcome')[0]).toMatchObject({ lobby: false, media: { canPublish: true } });
    await member.close();
  });

  it('has no lobby on a broadcast', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast' }]);
    const { token } = await walkIn(event.id);
    const viewer = await LiveClient.join(t.server, token);
    expect(viewer.all('welcome')[0]).toMatchObject({ lobby: false, identity: { role: 'viewer' } });
    await viewer.close();
  });

  it('answers admitting someone who is not waiting with not_found, and refuses lobby calls from participants', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    const host = await hostOf(event.id);
    host.send({ type: 'lobby.admit', participantId: 'user:nobody' });
    expect(await host.next('error')).toMatchObject({ code: 'not_found' });
    const p = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'participant', via: 'entry' }),
    );
    p.send({ type: 'lobby.admit', participantId: 'user:nobody' });
    expect(await p.next('error')).toMatchObject({ code: 'forbidden' });
    await host.close();
    await p.close();
  });
});
