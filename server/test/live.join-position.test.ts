import { setTimeout as delay } from 'node:timers/promises';
import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server';
import { eventIn } from './support/events';
import { liveBackends, useTwoProcesses } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';

/*
 * A joining socket's position (welcome.lastSeq) is kept by each process from the messages it delivers,
 * not read per join: it must still be exact. Every message numbered after it reaches the socket, none
 * at or before it does, for viewers joining while the host talks, on the host's process and another.
 */
describe.each(liveBackends)('live gateway: the position a socket joins at (%s)', (_backend, env) => {
  let a: RunningServer;
  let b: RunningServer;
  let gc: GathercastClient;
  useTwoProcesses(env, (started) => {
    ({ a, b, gc } = started);
  });

  it('gives viewers who join while the host talks exactly the messages numbered after their welcome', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
    const host = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    // One viewer on each process first, so both already keep the event's position when the crowd comes.
    const early = [
      await LiveClient.join(a, await tokenFor(a, event.id, { role: 'viewer', anonymous: true })),
      await LiveClient.join(b, await tokenFor(b, event.id, { role: 'viewer', anonymous: true })),
    ];
    const lines = Array.from({ length: 15 }, (_, i) => `line ${i}`);
    // Joins spread over the 300 ms the host talks, and a line every 20 ms: the interleaving is the
    // subject, so these are pacing, not waits for something.
    const joining = Array.from({ length: 30 }, async (_, i) => {
      const server = i % 2 ? a : b;
      await delay(i * 10);
      return LiveClient.join(server, await tokenFor(server, event.id, { role: 'viewer', anonymous: true }));
    });
    for (const text of lines) {
      host.send({ type: 'chat.send', text });
      await delay(20);
    }
    const viewers = [...early, ...(await Promise.all(joining))];
    host.send({ type: 'chat.send', text: 'end' });
    await host.next('chat.message', (m) => m.text === 'end');
    await Promise.all(viewers.map((v) => v.next('chat.message', (m) => m.text === 'end')));
    const said = host.all('chat.message').map((m) => m.seq!);
    for (const v of viewers) {
      const position = v.all('welcome')[0]!.lastSeq;
      expect(v.all('chat.message').map((m) => m.seq)).toEqual(said.filter((seq) => seq > position));
    }
    await Promise.all([host, ...viewers].map((c) => c.close()));
  }, 60_000);
});
