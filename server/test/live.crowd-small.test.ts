import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn } from './support/events';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';
import type { TestServer } from './support/server';

/**
 * A meeting of 50 is a small audience: every vote, reaction and chat line reaches everyone at once
 * as its own message, as it always did; nothing waits for a batch interval.
 */
const size = 50;

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace({ LOG_LEVEL: 'warn' }, (started) => {
  ({ t, gc } = started);
});

describe('a small audience', () => {
  it('hears each vote, reaction and chat line at once as its own message, never in a batch', async () => {
    const event = await eventIn(gc, 'live', [
      { modality: 'meeting', featureSet: ['chat', 'polls', 'reactions'] },
    ]);
    const host = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'host' }));
    const others = await Promise.all(
      Array.from({ length: size - 1 }, async () =>
        LiveClient.join(
          t.server,
          await tokenFor(t.server, event.id, { role: 'participant', anonymous: true }),
        ),
      ),
    );
    const everyone = [host, ...others];
    host.send({ type: 'poll.create', question: 'Lunch?', options: ['yes', 'no'] });
    const { pollId } = await host.next('poll');
    const [first, second] = others as [LiveClient, LiveClient];
    first.send({ type: 'poll.vote', pollId, option: 0 });
    for (const c of everyone)
      expect(await c.next('poll', (p) => p.counts[0] === 1)).toMatchObject({ counts: [1, 0] });
    second.send({ type: 'reaction.send', emoji: '👏' });
    const sender = second.all('welcome')[0]!.identity.participantId;
    for (const c of everyone)
      expect(await c.next('reaction')).toMatchObject({ emoji: '👏', participantId: sender });
    first.send({ type: 'chat.send', text: 'hello all' });
    for (const c of everyone) expect(await c.next('chat.message')).toMatchObject({ text: 'hello all' });
    for (const c of everyone) {
      expect(c.all('batch')).toHaveLength(0);
      expect(c.all('poll.voted')).toHaveLength(0);
    }
    await Promise.all(everyone.map((c) => c.close()));
  });
});
