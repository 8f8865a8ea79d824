import {
  createClient,
  type GathercastClient,
  LiveConnection,
  type WebSocketConstructor,
} from '@gathercast/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { eventBudgetMs, waitUntil } from './support/budgets';
import { type ApiProcess, type Cluster, metricOf, metricsText, startCluster } from './support/cluster';
import { createWorkspace, type WorkspaceFixture } from './support/fixtures';
import { Receiver } from './support/receiver';
import { quietFor } from './support/wait';

/**
 * Three server processes (each started with the container image's command) on one PostgreSQL, reached
 * through PgBouncer in transaction mode for requests (DATABASE_URL) and directly for sessions
 * (DATABASE_DIRECT_URL), and one Redis, behind HAProxy running deploy/haproxy.cfg with its retries off: no resend by the balancer
 * hides a request a process dropped. Every client call goes through the balancer with the SDK, as an
 * integrator's would; a process is addressed directly only to prove what each one does. On SIGTERM
 * the processes stay 1.5 s out of rotation before closing: six of the balancer's 250 ms checks.
 */
let cluster: Cluster;
let rx: Receiver;
let owner: WorkspaceFixture;
/** The workspace's API key through the balancer. */
let gc: GathercastClient;
const timings: Record<string, number> = {};

beforeAll(async () => {
  const began = Date.now();
  const env = { SHUTDOWN_DELAY_MS: '1500', LIVE_DRAIN_MS: '500' };
  [cluster, rx] = await Promise.all([
    startCluster(3, { retries: 0, env, pgbouncer: true }),
    Receiver.start(),
  ]);
  Object.assign(timings, cluster.timings, { startup: Date.now() - began });
  owner = await createWorkspace(cluster.databaseUrl);
  gc = createClient({ baseUrl: cluster.url, apiKey: owner.apiKey });
}, 300_000);

afterAll(async () => {
  // The closing note of a run: how long the cluster took to start and each part took.
  console.info(`cluster test timings (ms): ${JSON.stringify(timings)}`);
  const trouble = cluster?.balancerTrouble() ?? [];
  if (trouble.length) console.info(`balancer: requests that did not end normally:\n${trouble.join('\n')}`);
  await Promise.all([cluster?.close(), rx?.close()]);
});

const ws = {
  WebSocket: WebSocket as unknown as WebSocketConstructor,
  reconnect: { initialDelayMs: 100, maxDelayMs: 1000 },
};

/** A public live broadcast with chat, published and started through the balancer. */
async function liveEvent(title: string) {
  const event = await gc.events.create({
    type: 'webinar',
    title,
    visibility: 'public',
    phases: [{ modality: 'broadcast', featureSet: ['chat'] }],
  });
  await gc.events.publish(event.id);
  await gc.events.start(event.id);
  return event;
}

/** A live connection through the balancer that keeps what it receives. */
async function join(eventId: string, auth: { sessionToken?: string } = {}) {
  const { url } = await createClient({ baseUrl: cluster.url, ...auth }).gateway.token({ eventId });
  const live = await LiveConnection.open(url, ws);
  const seen = { chats: [] as string[], viewers: -1, disconnected: 0, resumed: 0, reset: 0 };
  live.on('chat.message', (m) => seen.chats.push(m.text));
  live.on('audience', (m) => (seen.viewers = m.byRole.viewer));
  live.on('disconnected', () => seen.disconnected++);
  live.on('resumed', () => seen.resumed++);
  live.on('reset', () => seen.reset++);
  return { live, seen };
}

type Joined = Awaited<ReturnType<typeof join>>;

const socketsOn = (p: ApiProcess) => metricOf(p, 'gathercast_live_sockets');

/** API requests (not the balancer's /readyz checks) a process answered, from its own metrics. */
async function apiRequestsOn(p: ApiProcess): Promise<number> {
  const text = await metricsText(p);
  return text
    .split('\n')
    .filter(
      (l) => l.startsWith('gathercast_http_request_duration_seconds_count{') && l.includes('route="/v1/'),
    )
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

describe('three processes behind HAProxy', () => {
  it('creates, publishes and registers through the balancer, served by every process', async () => {
    const began = Date.now();
    const anyone = createClient({ baseUrl: cluster.url });
    for (let i = 0; i < 6; i++) {
      const event = await gc.events.create({ type: 'webinar', title: `Balanced ${i}`, visibility: 'public' });
      await gc.events.publish(event.id);
      const answer = await anyone.public.register(event.id, {
        name: `Reg ${i}`,
        email: `reg-${i}-${event.id.slice(0, 8)}@example.test`,
      });
      expect(answer).toMatchObject({ registered: true, alreadyRegistered: false });
      expect((await gc.events.retrieve(event.id)).status).toBe('scheduled');
    }
    for (const p of cluster.processes) expect(await apiRequestsOn(p), p.name).toBeGreaterThan(0);
    timings.crud = Date.now() - began;
  });

  it('lets viewers spread over the three processes see each other’s messages and one audience count', async () => {
    const began = Date.now();
    const event = await liveEvent('Spread');
    const viewers: Joined[] = [];
    for (let i = 0; i < 6; i++) viewers.push(await join(event.id));
    for (const p of cluster.processes) expect(await socketsOn(p), `${p.name}'s sockets`).toBeGreaterThan(0);
    for (const [i, v] of viewers.entries()) v.live.send({ type: 'chat.send', text: `hello from ${i}` });
    const all = viewers.map((_, i) => `hello from ${i}`).sort();
    await waitUntil(
      () => viewers.every((v) => v.seen.chats.length >= all.length),
      'every viewer to see every chat',
    );
    for (const v of viewers) expect([...v.seen.chats].sort()).toEqual(all);
    await waitUntil(() => viewers.every((v) => v.seen.viewers === 6), 'every viewer to count six viewers');
    await Promise.all(viewers.map((v) => v.live.close()));
    timings.live = Date.now() - began;
  });

  it('delivers every webhook once per event id', async () => {
    const began = Date.now();
    await gc.webhooks.create({ url: rx.url('once'), eventTypes: ['event.published'] });
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      const event = await gc.events.create({ type: 'webinar', title: `Hooked ${i}` });
      await gc.events.publish(event.id);
      ids.push(event.id);
    }
    await rx.waitFor(() => rx.to('once').length >= ids.length, eventBudgetMs, 'nine deliveries');
    // Give a duplicate the time a second process would need to pick the same job: one more sweep. No
    // event marks a duplicate that does not come, and deliveries from three processes are no ordered stream.
    await quietFor(1000);
    const bodies = rx.to('once').map((r) => JSON.parse(r.body) as { id: string; eventId: string });
    expect(bodies.map((b) => b.eventId).sort()).toEqual([...ids].sort());
    expect(new Set(rx.to('once').map((r) => r.headers['x-gc-event-id'])).size).toBe(ids.length);
    timings.webhooks = Date.now() - began;
  });

  it('refuses an API key revoked through one process on the next request to every process', async () => {
    const session = createClient({ baseUrl: cluster.url, sessionToken: owner.sessionToken });
    const key = await session.apiKeys.create(owner.workspaceId, { name: 'short-lived' });
    const direct = cluster.processes.map((p) =>
      createClient({ baseUrl: p.url, apiKey: key.secret, maxRetries: 0 }),
    );
    // Every process has the key in its credential cache before the revocation.
    for (const c of direct) await c.events.list();
    await session.apiKeys.delete(owner.workspaceId, key.id);
    for (const c of [...direct, createClient({ baseUrl: cluster.url, apiKey: key.secret, maxRetries: 0 })])
      await expect(c.events.list()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('restarts each process in turn with balancer retries off: no call fails, no live message is lost, presence holds', async () => {
    const began = Date.now();
    await gc.webhooks.create({ url: rx.url('roll'), eventTypes: ['participant.left'] });
    const event = await liveEvent('Rolling');
    const host = await join(event.id, { sessionToken: owner.sessionToken });
    const viewers: Joined[] = [];
    for (let i = 0; i < 6; i++) viewers.push(await join(event.id));
    // No SDK retries either: every failed call counts.
    const strict = createClient({ baseUrl: cluster.url, apiKey: owner.apiKey, maxRetries: 0 });
    const failures: string[] = [];
    let answered = 0;
    let rolling = true;
    const caller = async (c: number) => {
      for (let i = 0; rolling; i++) {
        try {
          const created = await strict.events.create({ type: 'webinar', title: `Roll ${c}.${i}` });
          await strict.events.retrieve(created.id);
          answered += 2;
        } catch (err) {
          failures.push(String((err as Error).message).slice(0, 200));
        }
      }
    };
    let chat = 0;
    const chatter = setInterval(() => {
      try {
        host.live.send({ type: 'chat.send', text: `roll ${chat + 1}` });
        chat++;
      } catch {}
      // Under the socket's 10 messages/s: faster, the host's last line could meet rate_limited.
    }, 125);
    const calling = Promise.all([caller(1), caller(2), caller(3)]);
    const exits: { exitCode: unknown; exitMs: number }[] = [];
    try {
      for (const p of cluster.processes) {
        exits.push(await cluster.restart(p));
        // Back in rotation: the new process answers API calls through the balancer.
        await waitUntil(async () => (await apiRequestsOn(p)) > 0, `${p.name} back in rotation`);
      }
    } finally {
      rolling = false;
      clearInterval(chatter);
      await calling;
    }
    timings.roll = Date.now() - began;
    timings.rollExits = Math.max(...exits.map((e) => e.exitMs));
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(20);
    for (const e of exits) expect(e.exitCode).toBe(0);

    const everyone = [host, ...viewers];
    host.live.send({ type: 'chat.send', text: 'rolled' });
    await waitUntil(
      () => everyone.every((c) => c.seen.chats.includes('rolled')),
      'every client to get the last message',
    );
    expect(everyone.filter((c) => c.seen.disconnected > 0).length, 'clients moved').toBeGreaterThan(0);
    for (const c of everyone) expect(c.seen).toMatchObject({ reset: 0, resumed: c.seen.disconnected });
    const echoed = host.seen.chats.filter((t) => t.startsWith('roll '));
    expect(echoed.length).toBeGreaterThan(5);
    for (const v of viewers) expect(v.seen.chats.filter((t) => t.startsWith('roll '))).toEqual(echoed);

    // Presence held across the moves: the only participant.left is the viewer who leaves now.
    const leaving = viewers.pop()!;
    await leaving.live.close();
    const lefts = () =>
      rx.to('roll').filter((r) => (JSON.parse(r.body) as { eventId: string }).eventId === event.id);
    await rx.waitFor(() => lefts().length > 0, eventBudgetMs, 'the leaving viewer’s participant.left');
    expect(lefts()).toHaveLength(1);
    await Promise.all([host, ...viewers].map((c) => c.live.close()));
  }, 600_000);

  // Last: it leaves the cluster one process short.
  it('loses nothing acknowledged when one process is SIGKILLed mid-flow, and clients carry on', async () => {
    const began = Date.now();
    await gc.webhooks.create({ url: rx.url('killed'), eventTypes: ['event.published'] });
    const event = await liveEvent('Crash');
    const host = await join(event.id, { sessionToken: owner.sessionToken });
    const viewers: Joined[] = [];
    for (let i = 0; i < 6; i++) viewers.push(await join(event.id));
    const victim = (
      await Promise.all(cluster.processes.map(async (p) => ({ p, sockets: await socketsOn(p) })))
    ).sort((a, b) => b.sockets - a.sockets)[0]!.p;

    // Writes through the balancer, two at a time; a call still open when the flow stops is aborted,
    // so every create-and-publish counts either as acknowledged or as not.
    const acknowledged: string[] = [];
    const abort = new AbortController();
    let killedAt = 0;
    let afterKill = 0;
    const writer = async (w: number) => {
      for (let i = 0; !abort.signal.aborted; i++) {
        try {
          const options = { signal: abort.signal, maxRetries: 3 };
          const created = await gc.events.create({ type: 'webinar', title: `Flow ${w}.${i}` }, options);
          await gc.events.publish(created.id, options);
          acknowledged.push(created.id);
          if (killedAt) afterKill++;
        } catch {
          // Not acknowledged (cut by the kill, or aborted at the end): nothing is owed for it.
        }
      }
    };
    let chat = 0;
    const chatter = setInterval(() => {
      // While the host reconnects its messages wait in the SDK's outbox; a full outbox refuses more.
      try {
        host.live.send({ type: 'chat.send', text: `tick ${chat + 1}` });
        chat++;
      } catch {}
      // Under the socket's 10 messages/s: faster, the host's last line could meet rate_limited.
    }, 125);
    const writing = Promise.all([writer(1), writer(2)]);
    try {
      await waitUntil(() => acknowledged.length >= 3 && chat >= 5, 'writes and chat before the kill');
      victim.child.kill('SIGKILL');
      await victim.exited;
      killedAt = Date.now();
      // Carry on: writes keep being acknowledged through the balancer, the live ones reconnect.
      await waitUntil(() => afterKill >= 4, 'writes after the kill');
      await waitUntil(
        () => [host, ...viewers].every((c) => c.seen.resumed + c.seen.reset >= c.seen.disconnected),
        'the cut viewers to resume',
      );
    } finally {
      clearInterval(chatter);
      abort.abort();
      await writing;
    }
    timings.recovery = Date.now() - killedAt;
    const cut = [host, ...viewers].filter((c) => c.seen.disconnected > 0);
    expect(cut.length, 'clients that were on the killed process').toBeGreaterThan(0);
    for (const c of cut) expect(c.seen).toMatchObject({ reset: 0 });

    // Live: every chat message the host got back (the gateway fanned it out) reached every viewer once, in order.
    host.live.send({ type: 'chat.send', text: 'last' });
    await waitUntil(
      () => [host, ...viewers].every((c) => c.seen.chats.includes('last')),
      'every client to get the last message',
    );
    const echoed = host.seen.chats.filter((t) => t.startsWith('tick '));
    expect(echoed.length).toBeGreaterThan(5);
    for (const v of viewers) {
      const ticks = v.seen.chats.filter((t) => t.startsWith('tick '));
      for (const t of echoed)
        expect(ticks, `a viewer ${v.seen.disconnected ? 'cut' : 'not cut'} by the kill`).toContain(t);
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(v.seen.chats.at(-1)).toBe('last');
    }

    // API: every acknowledged publish is stored and delivered; no webhook id stands for two events.
    for (const id of acknowledged) expect((await gc.events.retrieve(id)).status).toBe('scheduled');
    const published = () =>
      new Set(rx.to('killed').map((r) => (JSON.parse(r.body) as { eventId: string }).eventId));
    await rx.waitFor(
      () => acknowledged.every((id) => published().has(id)),
      eventBudgetMs,
      'every acknowledged publish delivered',
    );
    const eventsById = new Map<string, Set<string>>();
    const idsByEvent = new Map<string, Set<string>>();
    for (const r of rx.to('killed')) {
      const body = JSON.parse(r.body) as { id: string; eventId: string };
      expect(r.headers['x-gc-event-id']).toBe(body.id);
      eventsById.set(body.id, (eventsById.get(body.id) ?? new Set()).add(body.eventId));
      idsByEvent.set(body.eventId, (idsByEvent.get(body.eventId) ?? new Set()).add(body.id));
    }
    for (const events of eventsById.values()) expect(events.size).toBe(1);
    for (const ids of idsByEvent.values()) expect(ids.size).toBe(1);
    await Promise.all([host, ...viewers].map((c) => c.live.close()));
    timings.kill = Date.now() - began;
  }, 90_000);
});
