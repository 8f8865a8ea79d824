import { randomUUID } from 'node:crypto';
import type { LiveServerMessage } from '@gathercast/contract';
import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server';
import { eventIn } from './support/events';
import { liveBackends, useTwoProcesses } from './support/hooks';
import { eventually, LiveClient, recorded, tokenFor } from './support/live';

const sequenced = (c: LiveClient) => c.messages.filter((m) => m.seq !== undefined);
const resumeQuery = (c: LiveClient) => {
  const welcome = c.all('welcome')[0]!;
  return { resume: welcome.resume.secret, after: String(sequenced(c).at(-1)?.seq ?? welcome.lastSeq) };
};

/** The sequence and resume protocol on the raw socket, on both backends, across two processes. */
describe.each(liveBackends)('live sequence numbers and resume (%s)', (_backend, env) => {
  let a: RunningServer;
  let b: RunningServer;
  let databaseUrl: string;
  let gc: GathercastClient;
  useTwoProcesses(env, (started) => {
    ({ a, b, databaseUrl, gc } = started);
  });
  const liveEvent = () =>
    eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat', 'qa', 'polls'] }]);

  it('numbers every fanned-out message per event, the same on every process, and no per-socket reply', async () => {
    const event = await liveEvent();
    const host = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    const viewer = await LiveClient.join(b, await tokenFor(b, event.id, { role: 'viewer', anonymous: true }));
    for (const text of ['one', 'two', 'three']) host.send({ type: 'chat.send', text });
    await viewer.next('chat.message', (m) => m.text === 'three');
    await host.next('chat.message', (m) => m.text === 'three');
    const chats = (c: LiveClient) => c.all('chat.message').map((m) => [m.text, m.seq]);
    expect(chats(viewer)).toEqual(chats(host));
    const seqs = viewer.all('chat.message').map((m) => m.seq!);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(3);
    expect(seqs[0]).toBeGreaterThan(viewer.all('welcome')[0]!.lastSeq);
    viewer.send({ type: 'ping' });
    expect((await viewer.next('pong')).seq).toBeUndefined();
    expect(viewer.all('welcome')[0]!.seq).toBeUndefined();
    await host.close();
    await viewer.close();
  });

  it('replays what a dropped socket missed once and in order on the other process, without presence churn', async () => {
    const event = await liveEvent();
    const host = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    const userId = randomUUID();
    const first = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'participant', userId }));
    host.send({ type: 'chat.send', text: 'before' });
    await first.next('chat.message', (m) => m.text === 'before');
    const query = resumeQuery(first);
    first.ws.terminate();
    await first.closed;
    host.send({ type: 'chat.send', text: 'while away 1' });
    host.send({ type: 'announcement.send', text: 'while away 2' });
    host.send({ type: 'chat.send', text: 'while away 3' });
    await host.next('chat.message', (m) => m.text === 'while away 3');
    const again = await LiveClient.join(
      b,
      await tokenFor(b, event.id, { role: 'participant', userId }),
      query,
    );
    const welcome = again.all('welcome')[0]!;
    expect(welcome.resumed).toEqual({ after: Number(query.after), replayed: 3 });
    host.send({ type: 'chat.send', text: 'after' });
    await again.next('chat.message', (m) => m.text === 'after');
    await host.next('chat.message', (m) => m.text === 'after');
    const texts = (ms: LiveServerMessage[]) =>
      ms.map((m) => (m.type === 'chat.message' || m.type === 'announcement' ? m.text : m.type));
    expect(texts(sequenced(again))).toEqual(['while away 1', 'while away 2', 'while away 3', 'after']);
    const hostSeqs = sequenced(host)
      .filter((m) => m.type !== 'presence.joined')
      .slice(-4)
      .map((m) => m.seq);
    expect(sequenced(again).map((m) => m.seq)).toEqual(hostSeqs);
    // No snapshot after a resume: the replay is the state change.
    expect(again.messages[1]).toMatchObject({ type: 'chat.message', text: 'while away 1' });
    const participantId = `user:${userId}`;
    const pairs = async () => ({
      joined: (await recorded(databaseUrl, event.id, 'participant.joined')).filter(
        (p) => p.participantId === participantId,
      ),
      left: (await recorded(databaseUrl, event.id, 'participant.left')).filter(
        (p) => p.participantId === participantId,
      ),
    });
    expect(await pairs()).toMatchObject({ joined: [{ participantId }], left: [] });
    expect(host.all('presence.left')).toEqual([]);
    await again.close();
    await eventually(pairs, (p) => p.left.length === 1);
    expect((await pairs()).left).toHaveLength(1);
    await host.close();
  });

  it('answers a resume it cannot honour with resume_failed, a fresh welcome and the snapshot', async () => {
    const event = await liveEvent();
    const host = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'host' }));
    host.send({ type: 'banner.show', text: 'Welcome back' });
    await host.next('banner');
    const viewer = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'viewer' }));
    const someoneElse = await LiveClient.join(a, await tokenFor(a, event.id, { role: 'viewer' }));
    const forged = await LiveClient.join(
      b,
      await tokenFor(b, event.id, { role: 'viewer' }),
      resumeQuery(someoneElse),
    );
    expect(forged.all('welcome')[0]!.resumed).toBeNull();
    expect(await forged.next('error')).toMatchObject({ code: 'resume_failed' });
    expect(await forged.next('banner')).toMatchObject({ text: 'Welcome back' });
    const future = await LiveClient.join(b, await tokenFor(b, event.id, { role: 'viewer' }), {
      ...resumeQuery(viewer),
      after: '999999',
    });
    expect(await future.next('error')).toMatchObject({ code: 'resume_failed' });
    for (const c of [host, viewer, someoneElse, forged, future]) await c.close();
  });
});
