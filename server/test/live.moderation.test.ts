import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn } from './support/events';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

type Feature = 'qa' | 'chat' | 'polls' | 'reactions';
const liveEvent = (featureSet: Feature[] = ['chat', 'polls', 'reactions']) =>
  eventIn(gc, 'live', [{ modality: 'broadcast', featureSet }]);
const join = async (eventId: string, role: 'host' | 'speaker' | 'viewer') =>
  LiveClient.join(t.server, await tokenFor(t.server, eventId, { role }));

describe('live chat and reactions', () => {
  it('sends reactions to everyone while the phase has reactions on, and refuses them otherwise', async () => {
    const event = await liveEvent();
    const viewer = await join(event.id, 'viewer');
    const host = await join(event.id, 'host');
    viewer.send({ type: 'reaction.send', emoji: '👏' });
    expect(await host.next('reaction')).toMatchObject({
      type: 'reaction',
      emoji: '👏',
      participantId: viewer.all('welcome')[0]!.identity.participantId,
    });
    const quiet = await liveEvent([]);
    const v2 = await join(quiet.id, 'viewer');
    v2.send({ type: 'reaction.send', emoji: '👏' });
    expect(await v2.next('error')).toMatchObject({ code: 'feature_disabled' });
    v2.send({ type: 'chat.send', text: 'hi' });
    expect(await v2.next('error')).toMatchObject({ code: 'feature_disabled' });
    for (const c of [viewer, host, v2]) await c.close();
  });
});

describe('live hands', () => {
  it('lets anyone raise a hand and lower their own, and hosts lower anyone’s', async () => {
    const event = await liveEvent();
    const viewer = await join(event.id, 'viewer');
    const other = await join(event.id, 'viewer');
    const host = await join(event.id, 'host');
    const vid = viewer.all('welcome')[0]!.identity.participantId;
    viewer.send({ type: 'hand.raise' });
    expect(await host.next('hand.raised')).toMatchObject({ type: 'hand.raised', participantId: vid });
    other.send({ type: 'hand.lower', participantId: vid });
    expect(await other.next('error')).toMatchObject({ code: 'forbidden' });
    host.send({ type: 'hand.lower', participantId: vid });
    expect(await viewer.next('hand.lowered')).toMatchObject({ type: 'hand.lowered', participantId: vid });
    viewer.send({ type: 'hand.raise' });
    await host.next('hand.raised');
    viewer.send({ type: 'hand.lower' });
    expect(await host.next('hand.lowered')).toMatchObject({ type: 'hand.lowered', participantId: vid });
    for (const c of [viewer, other, host]) await c.close();
  });

  it('shows raised hands to a socket that connects later', async () => {
    const event = await liveEvent();
    const viewer = await join(event.id, 'viewer');
    viewer.send({ type: 'hand.raise' });
    await viewer.next('hand.raised');
    const host = await join(event.id, 'host');
    expect(await host.next('hand.raised')).toMatchObject({
      participantId: viewer.all('welcome')[0]!.identity.participantId,
    });
    await viewer.close();
    await host.close();
  });
});

describe('live banners and announcements', () => {
  it('shows and clears a banner for everyone, late joiners included', async () => {
    const event = await liveEvent();
    const host = await join(event.id, 'host');
    const viewer = await join(event.id, 'viewer');
    host.send({ type: 'banner.show', text: 'Back in 5' });
    expect(await viewer.next('banner')).toMatchObject({ type: 'banner', text: 'Back in 5' });
    const late = await join(event.id, 'viewer');
    expect(await late.next('banner')).toMatchObject({ type: 'banner', text: 'Back in 5' });
    host.send({ type: 'banner.clear' });
    await viewer.next('banner', (m) => m.text === null);
    expect(viewer.all('banner').at(-1)).toMatchObject({ type: 'banner', text: null });
    const later = await join(event.id, 'viewer');
    later.send({ type: 'ping' });
    await later.next('pong');
    expect(later.all('banner')).toEqual([]);
    for (const c of [host, viewer, late, later]) await c.close();
  });

  it('refuses banners and announcements from speakers', async () => {
    const event = await liveEvent();
    const speaker = await join(event.id, 'speaker');
    speaker.send({ type: 'announcement.send', text: 'Hear ye' });
    expect(await speaker.next('error')).toMatchObject({ code: 'forbidden' });
    speaker.send({ type: 'banner.clear' });
    expect(await speaker.next('error')).toMatchObject({ code: 'forbidden' });
    await speaker.close();
  });
});

describe('live polls', () => {
  it('runs a poll: host creates, one vote per participant with counts for all, host closes', async () => {
    const event = await liveEvent();
    const host = await join(event.id, 'host');
    const v1 = await join(event.id, 'viewer');
    const v2 = await join(event.id, 'viewer');
    host.send({ type: 'poll.create', question: 'Lunch?', options: ['Pizza', 'Salad'] });
    const poll = await v1.next('poll');
    expect(poll).toMatchObject({
      type: 'poll',
      pollId: expect.any(String),
      question: 'Lunch?',
      options: ['Pizza', 'Salad'],
      counts: [0, 0],
      closed: false,
    });
    v1.send({ type: 'poll.vote', pollId: poll.pollId, option: 1 });
    expect(await host.next('poll', (p) => p.counts[1] === 1)).toMatchObject({ counts: [0, 1] });
    v1.send({ type: 'poll.vote', pollId: poll.pollId, option: 0 });
    expect(await v1.next('error')).toMatchObject({ code: 'already_voted' });
    v2.send({ type: 'poll.vote', pollId: poll.pollId, option: 5 });
    expect(await v2.next('error')).toMatchObject({ code: 'bad_request' });
    v2.send({ type: 'poll.close', pollId: poll.pollId });
    expect(await v2.next('error')).toMatchObject({ code: 'forbidden' });
    const late = await join(event.id, 'viewer');
    expect(await late.next('poll')).toMatchObject({ pollId: poll.pollId, counts: [0, 1], closed: false });
    host.send({ type: 'poll.close', pollId: poll.pollId });
    expect(await v2.next('poll', (p) => p.closed)).toMatchObject({ counts: [0, 1], closed: true });
    v2.send({ type: 'poll.vote', pollId: poll.pollId, option: 0 });
    expect(await v2.next('error')).toMatchObject({ code: 'invalid_state' });
    for (const c of [host, v1, v2, late]) await c.close();
  });

  it('refuses polls while the phase has no polls feature', async () => {
    const event = await liveEvent(['chat']);
    const host = await join(event.id, 'host');
    host.send({ type: 'poll.create', question: 'Q?', options: ['a', 'b'] });
    expect(await host.next('error')).toMatchObject({ code: 'feature_disabled' });
    await host.close();
  });
});
