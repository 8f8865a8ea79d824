import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../src/server';
import { eventIn, rejection } from './support/events';
import { liveBackends, useTwoProcesses } from './support/hooks';
import { eventually, LiveClient, recorded, startReplica, tokenFor } from './support/live';

/**
 * The live room run from a backend (REST on one process) and by hosts (the gateway), with the
 * participants on another process: every action reaches every process, on PostgreSQL and on Redis.
 */

/** The upgrade's answer for a token: 101 (opened, then closed again) or the refusal's status. */
function upgradeStatus(server: RunningServer, token: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/v1/live?token=${token}`);
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('error', () => {});
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
  });
}

describe.each(liveBackends)('running the live room across two processes (%s)', (_backend, env) => {
  let a: RunningServer;
  let b: RunningServer;
  let databaseUrl: string;
  let gc: GathercastClient;
  useTwoProcesses(env, (started) => {
    ({ a, b, databaseUrl, gc } = started);
  });

  const liveRoom = (featureSet: ('chat' | 'qa')[] = ['chat', 'qa'], config = {}) =>
    eventIn(gc, 'live', [{ modality: 'broadcast', featureSet, config }], { allowAnonymousQuestions: true });
  const idOf = (c: LiveClient) => c.all('welcome')[0]!.identity.participantId;
  const viewerOn = async (server: RunningServer, eventId: string) =>
    LiveClient.join(server, await tokenFor(server, eventId, { role: 'viewer', anonymous: true }));
  const hostOn = async (server: RunningServer, eventId: string) =>
    LiveClient.join(server, await tokenFor(server, eventId, { role: 'host' }));

  it('lists who is present on both processes, a page at a time', async () => {
    const event = await liveRoom();
    const host = await hostOn(a, event.id);
    const viewer = await viewerOn(b, event.id);
    const all = await eventually(
      async () => (await gc.live.participants.list(event.id)).participants,
      (p) => p.length === 2,
    );
    expect(all.map((p) => p.participantId).sort()).toEqual([idOf(host), idOf(viewer)].sort());
    expect(all.find((p) => p.participantId === idOf(viewer))).toMatchObject({
      role: 'viewer',
      anonymous: true,
      muted: false,
    });
    const first = await gc.live.participants.list(event.id, { limit: 1 });
    expect(first.participants).toHaveLength(1);
    const second = await gc.live.participants.list(event.id, { limit: 1, cursor: first.nextCursor! });
    expect([...first.participants, ...second.participants].map((p) => p.participantId)).toEqual(
      all.map((p) => p.participantId),
    );
    expect(second.nextCursor).toBeNull();
    await host.close();
    await viewer.close();
  });

  it('removes a participant everywhere with a reason; their old token is refused, a new one admitted', async () => {
    const event = await liveRoom();
    const host = await hostOn(a, event.id);
    const token = await tokenFor(b, event.id, { role: 'viewer' });
    const tab1 = await LiveClient.join(b, token);
    const tab2 = await LiveClient.join(a, token);
    const id = idOf(tab1);
    await gc.live.participants.remove(event.id, id, { reason: 'Off topic' });
    expect(await tab1.next('removed')).toMatchObject({ reason: 'Off topic', banned: false });
    expect([await tab1.closed, await tab2.closed]).toEqual([4012, 4012]);
    expect(
      await eventually(
        () => upgradeStatus(a, token),
        (s) => s === 403,
      ),
    ).toBe(403);
    expect(
      await eventually(
        () => upgradeStatus(b, token),
        (s) => s === 403,
      ),
    ).toBe(403);
    const fresh = await LiveClient.join(
      b,
      await tokenFor(b, event.id, { role: 'viewer', userId: id.slice(5) }),
    );
    expect(idOf(fresh)).toBe(id);
    expect(await recorded(databaseUrl, event.id, 'participant.removed')).toEqual([
      { participantId: id, userId: id.slice(5), reason: 'Off topic', by: 'api' },
    ]);
    await fresh.close();
    await host.close();
  });

  it('bans an anonymous viewer and their address for the event, until unbanned', async () => {
    const event = await liveRoom();
    const viewer = await viewerOn(b, event.id);
    const id = idOf(viewer);
    await gc.live.participants.ban(event.id, id, { reason: 'Spam', clientAddress: true });
    expect(await viewer.next('removed')).toMatchObject({ reason: 'Spam', banned: true });
    expect(await viewer.closed).toBe(4011);
    // Another anonymous token from the same address: refused on both processes.
    const again = await tokenFor(a, event.id, { role: 'viewer', anonymous: true });
    expect(
      await eventually(
        () => upgradeStatus(a, again),
        (s) => s === 403,
      ),
    ).toBe(403);
    expect(
      await eventually(
        () => upgradeStatus(b, again),
        (s) => s === 403,
      ),
    ).toBe(403);
    expect(await recorded(databaseUrl, event.id, 'participant.banned')).toEqual([
      { participantId: id, reason: 'Spam', by: 'api', clientAddress: true },
    ]);
    await gc.live.participants.unban(event.id, id);
    expect(
      await eventually(
        () => upgradeStatus(b, again),
        (s) => s === 101,
      ),
    ).toBe(101);
  });

  it('bans the address an anonymous viewer last connected from, after they left', async () => {
    const event = await liveRoom();
    const viewer = await viewerOn(b, event.id);
    const id = idOf(viewer);
    await viewer.close();
    await gc.live.participants.ban(event.id, id, { reason: 'Spam', clientAddress: true });
    // Another anonymous token from the address the viewer had: refused on both processes.
    const again = await tokenFor(a, event.id, { role: 'viewer', anonymous: true });
    for (const server of [a, b])
      expect(
        await eventually(
          () => upgradeStatus(server, again),
          (s) => s === 403,
        ),
      ).toBe(403);
  });

  it('bans the address a viewer last connected from when the process that served them is gone', async () => {
    const event = await liveRoom();
    const gone = await startReplica(databaseUrl, env);
    const viewer = await viewerOn(gone, event.id);
    const id = idOf(viewer);
    await viewer.close();
    // The process stops (as a restart would): nothing of the viewer is left in any process's memory.
    await gone.close();
    await gc.live.participants.ban(event.id, id, { reason: 'Spam', clientAddress: true });
    const again = await tokenFor(a, event.id, { role: 'viewer', anonymous: true });
    for (const server of [a, b])
      expect(
        await eventually(
          () => upgradeStatus(server, again),
          (s) => s === 403,
        ),
      ).toBe(403);
  });

  it('mutes a participant’s chat and questions on every process, and unmutes them', async () => {
    const event = await liveRoom();
    const host = await hostOn(a, event.id);
    const viewer = await viewerOn(b, event.id);
    const id = idOf(viewer);
    await gc.live.participants.mute(event.id, id);
    expect(await viewer.next('participant.muted')).toMatchObject({ participantId: id, muted: true });
    expect(await host.next('participant.muted')).toMatchObject({ participantId: id, muted: true });
    viewer.send({ type: 'chat.send', text: 'buy now' });
    expect(await viewer.next('error')).toMatchObject({ code: 'forbidden' });
    viewer.send({ type: 'question.create', text: 'buy now?' });
    expect(await viewer.next('error')).toMatchObject({ code: 'forbidden' });
    const listed = await gc.live.participants.list(event.id);
    expect(listed.participants.find((p) => p.participantId === id)?.muted).toBe(true);
    await gc.live.participants.unmute(event.id, id);
    await viewer.next('participant.muted', (m) => !m.muted);
    viewer.send({ type: 'chat.send', text: 'sorry' });
    expect(await host.next('chat.message')).toMatchObject({ text: 'sorry' });
    await viewer.close();
    await host.close();
  });

  it('deletes a chat line for everyone, and a resuming socket never gets its text again', async () => {
    const event = await liveRoom();
    const host = await hostOn(a, event.id);
    const token = await tokenFor(b, event.id, { role: 'viewer' });
    const viewer = await LiveClient.join(b, token);
    const welcome = viewer.all('welcome')[0]!;
    host.send({ type: 'chat.send', text: 'keep me' });
    viewer.send({ type: 'chat.send', text: 'delete me' });
    const line = await host.next('chat.message', (m) => m.text === 'delete me');
    host.send({ type: 'chat.delete', messageId: line.id });
    expect(await viewer.next('chat.deleted')).toMatchObject({ messageId: line.id });
    await viewer.close();
    const resumed = await LiveClient.join(a, token, {
      resume: welcome.resume.secret,
      after: String(welcome.lastSeq),
    });
    await resumed.next('chat.deleted');
    expect(resumed.all('chat.message').map((m) => m.text)).toEqual(['keep me']);
    expect(resumed.all('chat.deleted').map((m) => m.messageId)).toEqual([line.id, line.id]);
    await resumed.close();
    await host.close();
  });

  it('deletes a question for everyone and from the REST list', async () => {
    const event = await liveRoom();
    const viewer = await viewerOn(b, event.id);
    viewer.send({ type: 'question.create', text: 'Off-topic?' });
    const { question } = await viewer.next('question.created');
    await gc.live.room.deleteQuestion(event.id, question.id);
    expect(await viewer.next('question.deleted')).toMatchObject({ questionId: question.id });
    expect((await gc.questions.list(event.id)).questions).toEqual([]);
    const err = await rejection(gc.live.room.deleteQuestion(event.id, question.id));
    expect([err.status, err.code]).toEqual([404, 'not_found']);
    await viewer.close();
  });

  it('locks chat for the audience, then for everyone but moderators, then back to the phase config', async () => {
    const event = await liveRoom();
    const host = await hostOn(a, event.id);
    const viewer = await viewerOn(b, event.id);
    const settings = await gc.live.room.update(event.id, { chatMode: 'audience_locked' });
    expect(settings).toEqual({ chatMode: 'audience_locked', slowModeSeconds: 0, setForEvent: true });
    await viewer.next('room.settings', (m) => m.chatMode === 'audience_locked');
    viewer.send({ type: 'chat.send', text: 'hello?' });
    expect(await viewer.next('error')).toMatchObject({ code: 'forbidden' });
    host.send({ type: 'chat.send', text: 'hosts still talk' });
    expect(await viewer.next('chat.message')).toMatchObject({ text: 'hosts still talk' });
    await gc.live.room.update(event.id, { chatMode: null });
    await viewer.next('room.settings', (m) => m.chatMode === 'open');
    viewer.send({ type: 'chat.send', text: 'open again' });
    expect(await host.next('chat.message', (m) => m.text === 'open again')).toBeDefined();
    expect(await gc.live.room.retrieve(event.id)).toMatchObject({
      chatMode: 'open',
      setForEvent: false,
    });
    await viewer.close();
    await host.close();
  });

  it('keeps a minimum gap between one sender’s chat lines in slow mode from the phase config', async () => {
    const event = await liveRoom(['chat'], { chat: { slowModeSeconds: 60 } });
    const host = await hostOn(a, event.id);
    const viewer = await viewerOn(b, event.id);
    viewer.send({ type: 'chat.send', text: 'one' });
    await host.next('chat.message', (m) => m.text === 'one');
    viewer.send({ type: 'chat.send', text: 'two' });
    expect(await viewer.next('error')).toMatchObject({ code: 'rate_limited' });
    host.send({ type: 'chat.send', text: 'h1' });
    host.send({ type: 'chat.send', text: 'h2' });
    await viewer.next('chat.message', (m) => m.text === 'h2');
    expect(await gc.live.room.retrieve(event.id)).toEqual({
      chatMode: 'open',
      slowModeSeconds: 60,
      setForEvent: false,
    });
    await viewer.close();
    await host.close();
  });

  it('lets a host remove and ban over the gateway, and refuses those messages from anyone else', async () => {
    const event = await liveRoom();
    const host = await hostOn(a, event.id);
    const viewer = await viewerOn(b, event.id);
    const other = await viewerOn(b, event.id);
    other.send({ type: 'participant.remove', participantId: idOf(viewer) });
    expect(await other.next('error')).toMatchObject({ code: 'forbidden' });
    host.send({ type: 'participant.ban', participantId: idOf(viewer), reason: 'Abuse' });
    expect(await viewer.closed).toBe(4011);
    expect(await recorded(databaseUrl, event.id, 'participant.banned')).toEqual([
      { participantId: idOf(viewer), reason: 'Abuse', by: idOf(host), clientAddress: false },
    ]);
    host.send({ type: 'participant.remove', participantId: idOf(other) });
    expect(await other.closed).toBe(4012);
    await host.close();
  });
});
