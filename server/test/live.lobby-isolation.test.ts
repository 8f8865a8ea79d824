import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { signUp } from './support/accounts';
import { eventIn } from './support/events';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

/** What the room hears: a lobby waiter must get none of it before lobby.admitted. */
const roomTypes = ['chat.message', 'poll', 'announcement', 'banner', 'presence.joined', 'audience'];

/** An unlisted meeting with chat and polls, live, its host connected. */
async function meetingWithHost() {
  const event = await eventIn(gc, 'live', [{ modality: 'meeting', featureSet: ['chat', 'polls'] }], {
    visibility: 'unlisted',
  });
  const host = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'host' }));
  return { event, host };
}

/** A signed-in account outside the workspace: its Bearer session's gateway token puts it in the lobby. */
async function outsiderToken(eventId: string) {
  const outsider = await signUp(t, 'outsider');
  const answer = await outsider.client.gateway.token({ eventId });
  return {
    token: answer.token,
    participantId: (await t.server.gatewayTokens.verify(answer.token)).participantId,
  };
}

/** The host says something in each way the room hears; resolves when the host heard all of it. */
async function hostSpeaks(host: LiveClient, text: string) {
  host.send({ type: 'chat.send', text });
  host.send({ type: 'poll.create', question: `${text}?`, options: ['yes', 'no'] });
  host.send({ type: 'announcement.send', text: `${text}!` });
  await host.next('chat.message', (m) => m.text === text);
  await host.next('poll', (m) => m.question === `${text}?`);
  await host.next('announcement', (m) => m.text === `${text}!`);
}

/** Admits the waiter; what it was sent before `lobby.admitted` (everything of the room comes after). */
async function admit(host: LiveClient, waiter: LiveClient, participantId: string) {
  host.send({ type: 'lobby.admit', participantId });
  await waiter.next('lobby.admitted');
  const at = waiter.messages.findIndex((m) => m.type === 'lobby.admitted');
  return waiter.messages.slice(0, at);
}

describe('a lobby waiter', () => {
  it('hears nothing of the room (chat, polls, announcements) until a host admits it, then what a participant hears', async () => {
    const { event, host } = await meetingWithHost();
    const { token, participantId } = await outsiderToken(event.id);
    const waiter = await LiveClient.join(t.server, token);
    expect(waiter.all('welcome')[0]).toMatchObject({ lobby: true });
    await host.next('lobby.waiting', (m) => m.participant.participantId === participantId);

    await hostSpeaks(host, 'only for the room');
    const beforeAdmission = await admit(host, waiter, participantId);
    expect(beforeAdmission.map((m) => m.type).filter((type) => roomTypes.includes(type))).toEqual([]);

    // Admitted: the current poll arrives as a participant's snapshot, and the room's messages live.
    await waiter.next('poll', (m) => m.question === 'only for the room?');
    host.send({ type: 'chat.send', text: 'welcome in' });
    expect((await waiter.next('chat.message', (m) => m.text === 'welcome in')).from.participantId).toBe(
      host.all('welcome')[0]!.identity.participantId,
    );
    expect(waiter.all('chat.message').map((m) => m.text)).toEqual(['welcome in']);
    expect(waiter.all('announcement')).toEqual([]);
    for (const c of [host, waiter]) await c.close();
  });

  it('gets no history from a resume attempted from the lobby, and its lobby secret resumes nothing after admission', async () => {
    const { event, host } = await meetingWithHost();
    const { token, participantId } = await outsiderToken(event.id);
    const first = await LiveClient.join(t.server, token);
    const lobbySecret = first.all('welcome')[0]!.resume.secret;
    await host.next('lobby.waiting', (m) => m.participant.participantId === participantId);
    await first.close();
    await hostSpeaks(host, 'said while waiting');

    const again = await LiveClient.join(t.server, token, { resume: lobbySecret, after: '0' });
    expect(again.all('welcome')[0]).toMatchObject({ lobby: true, resumed: null });
    await host.next('lobby.waiting', (m) => m.participant.participantId === participantId);
    const beforeAdmission = await admit(host, again, participantId);
    expect(beforeAdmission.map((m) => m.type).filter((type) => roomTypes.includes(type))).toEqual([]);
    await again.next('audience');
    await again.close();

    // Admitted now (the decision is kept): the lobby's secret still replays nothing from before.
    const resumed = await LiveClient.join(t.server, token, { resume: lobbySecret, after: '0' });
    expect(resumed.all('welcome')[0]).toMatchObject({ lobby: false, resumed: null });
    await resumed.next('error', (m) => m.code === 'resume_failed');
    expect(resumed.all('chat.message')).toEqual([]);
    expect(resumed.all('announcement')).toEqual([]);
    for (const c of [host, resumed]) await c.close();
  });
});

describe('a resume', () => {
  it('is refused below the position the session joined at: a fresh socket cannot read earlier history', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
    const host = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'host' }));
    host.send({ type: 'chat.send', text: 'before you came' });
    await host.next('chat.message');
    const token = await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true });
    const viewer = await LiveClient.join(t.server, token);
    const { resume, lastSeq } = viewer.all('welcome')[0]!;
    await viewer.close();

    const early = await LiveClient.join(t.server, token, { resume: resume.secret, after: '0' });
    expect(early.all('welcome')[0]!.resumed).toBeNull();
    await early.next('error', (m) => m.code === 'resume_failed');
    expect(early.all('chat.message')).toEqual([]);
    await early.close();

    // From where it joined, the same secret replays what came after, and only that.
    host.send({ type: 'chat.send', text: 'after you came' });
    await host.next('chat.message', (m) => m.text === 'after you came');
    const resumed = await LiveClient.join(t.server, token, { resume: resume.secret, after: String(lastSeq) });
    expect(resumed.all('welcome')[0]!.resumed).toEqual({ after: lastSeq, replayed: 1 });
    expect((await resumed.next('chat.message')).text).toBe('after you came');
    for (const c of [host, resumed]) await c.close();
  });
});
