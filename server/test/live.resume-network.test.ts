import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { LiveServerMessage } from '@gathercast/contract';
import {
  createClient,
  type GathercastClient,
  LiveConnection,
  type WebSocketConstructor,
} from '@gathercast/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { RunningServer } from '../src/server';
import { createTestDatabase } from './support/database';
import { eventIn } from './support/events';
import { createWorkspace } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { eventually, LiveClient, recorded, startReplica, tokenFor } from './support/live';
import { ChildServer } from './support/process';
import { testRedisUrl } from './support/redis';
import type { TestServer } from './support/server';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy';

/*
 * Resume through the real network path: the SDK's LiveConnection behind a loopback TCP proxy whose
 * network is cut (or whose server process is SIGKILLed) while the event carries on.
 */
const redisUrl = testRedisUrl();
const features = [
  { modality: 'broadcast' as const, featureSet: ['chat' as const, 'qa' as const, 'polls' as const] },
];

/** The SDK through the proxy, every message the application is handed kept in order. */
async function attendee(proxy: TcpProxy, token: string) {
  const live = await LiveConnection.open(`${proxy.wsUrl}/v1/live?token=${encodeURIComponent(token)}`, {
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    reconnect: { initialDelayMs: 100, maxDelayMs: 1000 },
  });
  const seen: LiveServerMessage[] = [];
  live.on('message', (m) => seen.push(m));
  const resets: unknown[] = [];
  live.on('reset', (r) => resets.push(r));
  return { live, seen, resets, startedAfter: live.welcome.lastSeq };
}

/** While the attendee is away: a chat line, an announcement, a poll vote and a question. */
async function eventCarriesOn(host: LiveClient, voter: LiveClient, pollId: string) {
  host.send({ type: 'chat.send', text: 'while away' });
  host.send({ type: 'announcement.send', text: 'Doors close soon' });
  voter.send({ type: 'poll.vote', pollId, option: 1 });
  voter.send({ type: 'question.create', text: 'Is there a recording?' });
  await host.next('poll', (m) => m.pollId === pollId && m.counts[1] === 1);
  await host.next('question.created', (m) => m.question.text === 'Is there a recording?');
}

/** The attendee's sequenced messages equal the host's since the attendee joined: each once, in order. */
function expectSameStream(seen: LiveServerMessage[], host: LiveClient, after: number) {
  const key = (m: LiveServerMessage) => `${m.seq} ${m.type}`;
  const mine = seen.filter((m) => m.seq !== undefined).map(key);
  const hosts = host.messages.filter((m) => m.seq !== undefined && m.seq > after).map(key);
  expect(mine).toEqual(hosts);
  expect(new Set(mine).size).toBe(mine.length);
  const types = seen.map((m) => m.type);
  for (const t of ['chat.message', 'announcement', 'poll', 'question.created'] as const)
    expect(types.filter((x) => x === t).length).toBeGreaterThanOrEqual(1);
}

async function presenceOf(databaseUrl: string, eventId: string, participantId: string) {
  const of = async (type: string) =>
    (await recorded(databaseUrl, eventId, type)).filter((p) => p.participantId === participantId).length;
  return { joined: await of('participant.joined'), left: await of('participant.left') };
}

/**
 * The host, once its own presence.joined is numbered: a broadcast's attendee (counted, not announced)
 * hears no room messages, so its stream matches the host's only from a position past that one.
 */
async function hostOn(server: RunningServer, eventId: string) {
  const host = await LiveClient.join(server, await tokenFor(server, eventId, { role: 'host' }));
  await host.next('presence.joined');
  return host;
}

/** A signed-in participant with a real user record (questions name their author). */
async function voterOn(server: RunningServer, gc: GathercastClient, eventId: string) {
  const user = await gc.users.upsert({ externalSub: `resume-${randomUUID()}`, name: 'Vera' });
  return LiveClient.join(
    server,
    await tokenFor(server, eventId, { role: 'participant', userId: user.id, name: 'Vera' }),
  );
}

/**
 * Opens a poll; resolves once the attendee has it too. The attendee's wait starts before the poll is
 * created: its copy may arrive before the host's (another process, another socket), and the SDK's
 * `next` only sees messages that arrive after it is called.
 */
async function openPoll(host: LiveClient, me: { live: LiveConnection }) {
  const attendeeHasIt = me.live.next('poll');
  host.send({ type: 'poll.create', question: 'Lunch?', options: ['Yes', 'No'] });
  const { pollId } = await host.next('poll');
  expect((await attendeeHasIt).pollId).toBe(pollId);
  return pollId;
}

describe('a live socket cut by the network', () => {
  let t: TestServer;
  let gc: GathercastClient;
  let proxy: TcpProxy;
  useServerWithWorkspace(async (started) => {
    ({ t, gc } = started);
    proxy = await startTcpProxy(new URL(t.url).port as unknown as number);
  });
  afterAll(() => proxy?.close());

  it('resumes after 5 s: every message once and in order, and no presence webhooks', async () => {
    const event = await eventIn(gc, 'live', features);
    const host = await hostOn(t.server, event.id);
    const voter = await voterOn(t.server, gc, event.id);
    const userId = randomUUID();
    const me = await attendee(proxy, await tokenFor(t.server, event.id, { role: 'participant', userId }));
    const pollId = await openPoll(host, me);

    const resumed = me.live.next('resumed', { timeoutMs: 20_000 });
    const cutAt = Date.now();
    proxy.cut();
    await me.live.next('disconnected');
    await eventCarriesOn(host, voter, pollId);
    // The network stays cut for 5 s: the outage's length is the subject, not a wait for something.
    await delay(Math.max(0, 5000 - (Date.now() - cutAt)));
    proxy.restore();
    expect(await resumed).toMatchObject({ replayed: 4 });
    host.send({ type: 'chat.send', text: 'after' });
    await me.live.next('chat.message', { match: (m) => m.text === 'after' });
    await host.next('chat.message', (m) => m.text === 'after');

    expectSameStream(me.seen, host, me.startedAfter);
    expect(me.resets).toEqual([]);
    expect(await presenceOf(t.databaseUrl, event.id, `user:${userId}`)).toEqual({ joined: 1, left: 0 });
    expect(host.all('presence.left')).toEqual([]);
    await me.live.close();
    for (const c of [host, voter]) await c.close();
  }, 30_000);
});

describe('a resume after the window', () => {
  let t: TestServer;
  let gc: GathercastClient;
  let proxy: TcpProxy;
  const windowMs = 1000;
  useServerWithWorkspace({ LIVE_RESUME_WINDOW_MS: String(windowMs) }, async (started) => {
    ({ t, gc } = started);
    proxy = await startTcpProxy(new URL(t.url).port as unknown as number);
  });
  afterAll(() => proxy?.close());

  it('gets resume_failed, a fresh welcome and the snapshot; the SDK reports a reset', async () => {
    const event = await eventIn(gc, 'live', features);
    const host = await hostOn(t.server, event.id);
    host.send({ type: 'banner.show', text: 'Back soon' });
    await host.next('banner');
    const userId = randomUUID();
    const token = await tokenFor(t.server, event.id, { role: 'participant', userId });
    const raw = await LiveClient.join(t.server, token);
    const me = await attendee(proxy, await tokenFor(t.server, event.id, { role: 'participant' }));
    const query = {
      resume: raw.all('welcome')[0]!.resume.secret,
      after: String(raw.all('welcome')[0]!.lastSeq),
    };
    raw.ws.terminate();
    proxy.cut();
    host.send({ type: 'chat.send', text: 'missed' });
    const sentAt = Date.now();
    await host.next('chat.message', (m) => m.text === 'missed');
    // The held leave runs when the window is over: participant.left is the sign of it.
    await eventually(
      () => presenceOf(t.databaseUrl, event.id, `user:${userId}`),
      (p) => p.left === 1,
      10_000,
    );
    // The missed message ages out of the history window: the expiry is the subject, not a wait for something.
    await delay(Math.max(0, windowMs + 100 - (Date.now() - sentAt)));

    const late = await LiveClient.join(t.server, token, query);
    expect(late.all('welcome')[0]!.resumed).toBeNull();
    expect(await late.next('error')).toMatchObject({ code: 'resume_failed' });
    expect(await late.next('banner')).toMatchObject({ text: 'Back soon' });
    expect(late.all('chat.message')).toEqual([]);

    // The snapshot follows the welcome at once, often in the same network read: listen before.
    const reset = me.live.next('reset', { timeoutMs: 10_000 });
    const banner = me.live.next('banner');
    proxy.restore();
    expect(await reset).toMatchObject({ reason: 'window_elapsed' });
    expect(await banner).toMatchObject({ text: 'Back soon' });
    await me.live.close();
    for (const c of [host, late]) await c.close();
  }, 30_000);
});

describe.each([
  ['PostgreSQL', { REDIS_URL: '' }],
  ['Redis', { REDIS_URL: redisUrl }],
])('a live socket whose process is SIGKILLed (%s)', (_backend, env) => {
  it('resumes on the other process: every message once and in order, and no presence webhooks', async () => {
    const databaseUrl = await createTestDatabase();
    const b: RunningServer = await startReplica(databaseUrl, env);
    const a = await ChildServer.start(databaseUrl, env);
    const proxy = await startTcpProxy(Number(new URL(a.url).port));
    try {
      const gc = createClient({
        baseUrl: b.url,
        apiKey: (await createWorkspace(databaseUrl)).apiKey,
      });
      const event = await eventIn(gc, 'live', features);
      const host = await hostOn(b, event.id);
      const voter = await voterOn(b, gc, event.id);
      const userId = randomUUID();
      const me = await attendee(proxy, await tokenFor(b, event.id, { role: 'participant', userId }));
      // Counted on process A before it dies (a broadcast's viewers are counted, not announced).
      await eventually(
        () => presenceOf(databaseUrl, event.id, `user:${userId}`),
        (p) => p.joined === 1,
      );
      const pollId = await openPoll(host, me);

      const resumed = me.live.next('resumed', { timeoutMs: 20_000 });
      const disconnected = me.live.next('disconnected');
      await a.kill();
      await disconnected;
      await eventCarriesOn(host, voter, pollId);
      // The load balancer sends new connections to the process still alive.
      proxy.retarget(Number(new URL(b.url).port));
      // At least the four the host caused; a message sequenced while A died may come too. What matters
      // is checked below: the stream it ends up with is the host's, once and in order.
      expect((await resumed).replayed).toBeGreaterThanOrEqual(4);
      host.send({ type: 'chat.send', text: 'after' });
      await me.live.next('chat.message', { match: (m) => m.text === 'after' });
      await host.next('chat.message', (m) => m.text === 'after');

      expectSameStream(me.seen, host, me.startedAfter);
      expect(me.resets).toEqual([]);
      expect(await presenceOf(databaseUrl, event.id, `user:${userId}`)).toEqual({ joined: 1, left: 0 });
      expect(host.all('presence.left')).toEqual([]);
      await me.live.close();
      for (const c of [host, voter]) await c.close();
    } finally {
      await a.kill();
      await proxy.close();
      await b.close();
    }
  }, 150_000);
});
