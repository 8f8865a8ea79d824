import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server';
import { eventIn } from './support/events';
import { useServerAndReplica } from './support/hooks';
import { eventually, LiveClient, recorded, tokenFor } from './support/live';
import type { TestServer } from './support/server';

let t: TestServer;
let replica: RunningServer;
let gc: GathercastClient;
useServerAndReplica((started) => {
  ({ t, replica, gc } = started);
});

describe('live lifecycle changes', () => {
  it('sends phase.changed with each socket’s new grant on start and advance, whichever process made the change', async () => {
    const event = await eventIn(gc, 'scheduled', [{ modality: 'broadcast' }, { modality: 'meeting' }]);
    const { phases } = await gc.events.retrieve(event.id);
    // The socket is on the replica; the lifecycle calls go to the other process.
    const member = await LiveClient.join(replica, await tokenFor(replica, event.id, { role: 'participant' }));
    expect(member.all('welcome')[0]).toMatchObject({
      event: { status: 'scheduled' },
      activePhase: null,
      identity: { role: 'viewer' },
      media: { token: null, room: null },
    });
    await gc.events.start(event.id);
    const started = await member.next('phase.changed');
    expect(started).toMatchObject({
      eventStatus: 'live',
      activePhaseId: phases[0]!.id,
      media: { token: null, playbackUrl: expect.stringContaining(`evt_${event.id}_stage`) },
    });
    await gc.events.advance(event.id, {});
    const advanced = await member.next('phase.changed');
    expect(advanced).toMatchObject({
      eventStatus: 'live',
      activePhaseId: phases[1]!.id,
      media: { room: `evt_${event.id}_stage`, canPublish: true, canSubscribe: true, roomAdmin: false },
    });
    expect(advanced.media!.token).toEqual(expect.any(String));
    await member.close();
  });

  it('sends event.ended and closes every socket with 4000 when the event ends, firing participant.left', async () => {
    const event = await eventIn(gc, 'live');
    const host = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'host' }));
    const viewer = await LiveClient.join(
      replica,
      await tokenFor(replica, event.id, { role: 'viewer', anonymous: true }),
    );
    await gc.events.end(event.id);
    await host.next('event.ended');
    await viewer.next('event.ended');
    expect(await host.closed).toBe(4000);
    expect(await viewer.closed).toBe(4000);
    expect(
      await eventually(
        () => recorded(t.databaseUrl, event.id, 'participant.left'),
        (r) => r.length === 2,
      ),
    ).toHaveLength(2);
  });

  it('ends the sockets when the last advance ends the event', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    const p = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'participant', via: 'entry' }),
    );
    await gc.events.advance(event.id, {});
    await p.next('event.ended');
    expect(await p.closed).toBe(4000);
  });

  it('ends the sockets of an event that is deleted', async () => {
    const event = await eventIn(gc, 'live');
    const viewer = await LiveClient.join(
      replica,
      await tokenFor(replica, event.id, { role: 'viewer', anonymous: true }),
    );
    await gc.events.delete(event.id);
    await viewer.next('event.ended');
    expect(await viewer.closed).toBe(4000);
  });
});
