import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn, rejection } from './support/events';
import { createWorkspace } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';
import type { TestServer } from './support/server';

/**
 * What a live audience leaves behind, read over REST during and after the event: poll results with
 * exact counts, reaction totals per emoji, and the chat log, each paginated like GET /v1/events.
 */
let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace({ LOG_LEVEL: 'warn' }, (started) => {
  ({ t, gc } = started);
});

const liveEvent = () =>
  eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat', 'polls', 'reactions'] }]);
const join = async (eventId: string, role: 'host' | 'viewer', anonymous = false) =>
  LiveClient.join(t.server, await tokenFor(t.server, eventId, { role, anonymous }));

describe('audience records', () => {
  it('reads the chat log oldest first in pages, anonymous senders without a name, after the event ended', async () => {
    const event = await liveEvent();
    const host = await join(event.id, 'host');
    const viewer = await join(event.id, 'viewer', true);
    for (const text of ['one', 'two', 'three']) {
      host.send({ type: 'chat.send', text });
      await host.next('chat.message', (m) => m.text === text);
    }
    viewer.send({ type: 'chat.send', text: 'four' });
    const four = await host.next('chat.message', (m) => m.text === 'four');
    await gc.events.end(event.id);
    const first = await gc.chat.list(event.id, { limit: 3 });
    expect(first.messages.map((m) => m.text)).toEqual(['one', 'two', 'three']);
    expect(first.messages[0]).toMatchObject({
      eventId: event.id,
      role: 'host',
      authorName: 'Pat',
      anonymous: false,
    });
    const rest = await gc.chat.list(event.id, { cursor: first.nextCursor!, limit: 3 });
    expect(rest.messages).toEqual([
      expect.objectContaining({
        id: four.id,
        text: 'four',
        anonymous: true,
        authorName: null,
        role: 'viewer',
      }),
    ]);
    expect(rest.nextCursor).toBeNull();
    await Promise.all([host.close(), viewer.close()]);
  });

  it('reads poll results with exact counts and whether each poll is closed', async () => {
    const event = await liveEvent();
    const host = await join(event.id, 'host');
    const viewers = await Promise.all([
      join(event.id, 'viewer'),
      join(event.id, 'viewer'),
      join(event.id, 'viewer'),
    ]);
    host.send({ type: 'poll.create', question: 'Tea or coffee?', options: ['tea', 'coffee'] });
    const { pollId } = await host.next('poll');
    for (const [i, v] of viewers.entries()) v.send({ type: 'poll.vote', pollId, option: i === 0 ? 0 : 1 });
    await host.next('poll', (p) => p.counts[0]! + p.counts[1]! === 3);
    host.send({ type: 'poll.close', pollId });
    await host.next('poll', (p) => p.closed);
    host.send({ type: 'poll.create', question: 'Again?', options: ['yes', 'no', 'maybe'] });
    await host.next('poll', (p) => p.question === 'Again?');
    const { polls, nextCursor } = await gc.polls.list(event.id);
    expect(polls).toEqual([
      expect.objectContaining({
        id: pollId,
        question: 'Tea or coffee?',
        counts: [1, 2],
        votes: 3,
        closed: true,
      }),
      expect.objectContaining({
        question: 'Again?',
        options: ['yes', 'no', 'maybe'],
        counts: [0, 0, 0],
        closed: false,
      }),
    ]);
    expect(nextCursor).toBeNull();
    const paged = await gc.polls.list(event.id, { limit: 1 });
    const next = await gc.polls.list(event.id, { cursor: paged.nextCursor!, limit: 1 });
    expect([...paged.polls, ...next.polls].map((p) => p.id)).toEqual(polls.map((p) => p.id));
    await Promise.all([host, ...viewers].map((c) => c.close()));
  });

  it('reads reaction totals per emoji, most sent first, in pages', async () => {
    const event = await liveEvent();
    const viewer = await join(event.id, 'viewer');
    for (const emoji of ['🎉', '👏', '👏', '❤️', '👏', '🎉']) viewer.send({ type: 'reaction.send', emoji });
    for (let i = 0; i < 6; i++) await viewer.next('reaction');
    const first = await gc.reactions.list(event.id, { limit: 2 });
    expect(first.reactions).toEqual([
      { emoji: '👏', count: 3 },
      { emoji: '🎉', count: 2 },
    ]);
    const rest = await gc.reactions.list(event.id, { cursor: first.nextCursor! });
    expect(rest).toEqual({ reactions: [{ emoji: '❤️', count: 1 }], nextCursor: null });
    await viewer.close();
  });

  it('answers 404 for another workspace’s event and 400 for a cursor it did not give out', async () => {
    const event = await liveEvent();
    const other = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
    for (const list of [other.chat.list, other.polls.list, other.reactions.list])
      expect((await rejection(list(event.id))).status).toBe(404);
    for (const list of [gc.chat.list, gc.polls.list, gc.reactions.list]) {
      const refused = await rejection(list(event.id, { cursor: 'not-a-cursor' }));
      expect(refused).toMatchObject({ status: 400, code: 'bad_request' });
    }
  });
});
