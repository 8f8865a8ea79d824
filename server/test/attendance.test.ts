import { createClient, LiveConnection, type WebSocketConstructor } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { RunningServer } from '../src/server';
import { waitUntil } from './support/budgets';
import { createTestDatabase } from './support/database';
import { createWorkspace, withDb } from './support/fixtures';
import { LiveClient, startReplica, tokenFor } from './support/live';
import { ChildServer } from './support/process';

/*
 * Attendance at small scale under trouble: 20 anonymous viewers (the SDK's LiveConnection, automatic
 * reconnect) on two server processes sharing one database, 2 of them (10 %) flapping (their socket
 * closed and opened again), and one process SIGKILLed mid-event, its viewers taking over on the other.
 * Each viewer stays to the end, so the truth is its time from joining to the end; the report's total
 * minutes must be within 1 % of it, and the report ready (event.attendance_ready) within 60 s of the end.
 */
const perProcess = 10;
const jobs = { SCHEDULED_JOBS_INTERVAL_MS: '200', REDIS_URL: '' };

interface Viewer {
  participantId: string;
  /** Bounds of the moment it joined: before it connected, and when its welcome came. */
  connectingAt: number;
  welcomedAt: number;
  /** Set when it is back after its process was killed. */
  backAt?: number;
  close(): Promise<unknown>;
}

async function viewer(url: () => string): Promise<Viewer> {
  const connectingAt = Date.now();
  const live = await LiveConnection.open(url, {
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    timeoutMs: 20_000,
  });
  const v: Viewer = {
    participantId: live.welcome.identity.participantId,
    connectingAt,
    welcomedAt: Date.now(),
    close: () => live.close(),
  };
  live.on('resumed', () => {
    v.backAt = Date.now();
  });
  live.on('reset', () => {
    v.backAt = Date.now();
  });
  return v;
}

/** A viewer whose socket closes and opens again (same token) while the event runs. */
async function flapper(server: RunningServer, token: string) {
  const connectingAt = Date.now();
  let client = await LiveClient.join(server, token);
  const v: Viewer & { flap(): Promise<void> } = {
    participantId: (client.messages[0] as { identity: { participantId: string } }).identity.participantId,
    connectingAt,
    welcomedAt: Date.now(),
    close: () => client.close(),
    flap: async () => {
      await client.close();
      client = await LiveClient.join(server, token);
    },
  };
  return v;
}

describe('attendance report', () => {
  it('counts attended minutes within 1 % of the truth with flapping viewers and a killed process, ready within 60 s', async () => {
    const databaseUrl = await createTestDatabase();
    const b: RunningServer = await startReplica(databaseUrl, jobs);
    let a: ChildServer | undefined;
    const everyone: Viewer[] = [];
    const raw: LiveClient[] = [];
    try {
      a = await ChildServer.start(databaseUrl, jobs);
      const gc = createClient({ baseUrl: b.url, apiKey: (await createWorkspace(databaseUrl)).apiKey });
      const event = await gc.events.create({
        type: 'webinar',
        title: 'Report',
        visibility: 'public',
        phases: [{ modality: 'broadcast', featureSet: ['qa', 'polls', 'chat', 'reactions'] }],
      });
      await gc.events.publish(event.id);
      const regs = [];
      for (let i = 0; i < 4; i++)
        regs.push(
          await gc.public.register(event.id, { name: `R${i}`, email: `r${i}-${event.id}@example.test` }),
        );
      await gc.events.start(event.id);

      const hostUser = await gc.users.upsert({ externalSub: 'host', name: 'Hana Host' });
      await gc.memberships.create(event.id, { userId: hostUser.id, role: 'host' });
      const host = await LiveClient.join(
        b,
        await tokenFor(b, event.id, { role: 'host', userId: hostUser.id }),
      );
      raw.push(host);
      const [wsA, wsB] = [a.url, b.url].map((u) => `${u.replace('http', 'ws')}/v1/live`);
      let aAlive = true;
      const anonymous = () => tokenFor(b, event.id, { role: 'viewer', anonymous: true });
      const onA: Viewer[] = [];
      for (let i = 0; i < perProcess; i++) {
        const ta = await anonymous();
        onA.push(await viewer(() => `${aAlive ? wsA : wsB}?token=${ta}`));
      }
      for (let i = 0; i < perProcess - 2; i++) {
        const tb = await anonymous();
        everyone.push(await viewer(() => `${wsB}?token=${tb}`));
      }
      // 10 % flap: their sockets close and open again, twice.
      const flapping = [await flapper(b, await anonymous()), await flapper(b, await anonymous())];
      everyone.push(...onA, ...flapping);
      // Two registrants come (one of four: show-up 50 %), through their registration's identity.
      const came = regs.slice(0, 2);
      const registrantJoins: { at: number; client: LiveClient }[] = [];
      for (const r of came) {
        const at = Date.now();
        const token = await tokenFor(b, event.id, {
          role: 'viewer',
          participantId: `entry:${r.registrationId}`,
          userId: null,
          via: 'entry',
        });
        const client = await LiveClient.join(b, token);
        raw.push(client);
        registrantJoins.push({ at, client });
      }
      host.send({ type: 'question.create', text: 'Slides?' });
      await host.next('question.created');
      host.send({ type: 'poll.create', question: 'Useful?', options: ['Yes', 'No'] });
      const poll = await host.next('poll');
      host.send({ type: 'poll.vote', pollId: poll.pollId, option: 0 });
      const voted = await host.next('poll', (p) => p.counts.reduce((s, n) => s + n, 0) === 1);
      // Chat and reactions: two lines from the host, three reactions from the registrants and the host.
      host.send({ type: 'chat.send', text: 'Welcome!' });
      host.send({ type: 'chat.send', text: 'Slides follow.' });
      for (const { client } of registrantJoins) client.send({ type: 'reaction.send', emoji: '👏' });
      host.send({ type: 'reaction.send', emoji: '🎉' });
      await waitUntil(
        async () => (await gc.chat.list(event.id)).messages.length === 2,
        'the chat lines are in the chat log',
      );
      await waitUntil(
        async () => (await gc.reactions.list(event.id)).reactions.reduce((s, r) => s + r.count, 0) === 3,
        'the reactions are counted',
      );

      for (const v of flapping) await v.flap();

      aAlive = false;
      await a.kill();
      await waitUntil(() => onA.every((v) => v.backAt !== undefined), "A's viewers are back on B");
      for (const v of flapping) await v.flap();
      // Let time pass in the room after the failover (the event runs on; viewers watch).
      await waitUntil(
        async () =>
          (await withDb(
            databaseUrl,
            async (db) =>
              (
                await db.query('select count(distinct process_id)::int as n from live_presence')
              ).rows[0].n,
          )) === 1,
        "the killed process's presence is swept",
        40_000,
      );
      const ended = await gc.events.end(event.id);
      const endedAt = Date.parse(ended.endedAt!);

      await waitUntil(
        async () => (await gc.attendance.retrieveSummary(event.id).catch(() => null)) !== null,
        'the report is ready',
        60_000,
      );
      const summary = await gc.attendance.retrieveSummary(event.id);
      expect(Date.parse(summary.generatedAt) - endedAt).toBeLessThan(60_000);
      const fired = await withDb(
        databaseUrl,
        async (db) =>
          (
            await db.query(
              `select payload from domain_event where event_id = $1 and type = 'event.attendance_ready'`,
              [event.id],
            )
          ).rows,
      );
      expect(fired).toHaveLength(1);

      const attendees = [];
      for await (const row of gc.attendance.listAttendees(event.id, { limit: 7 })) attendees.push(row);
      const byId = new Map(attendees.map((x) => [x.participantId, x]));
      // Everyone in the room counted once: the viewers, the two registrants and the host.
      expect(summary.uniqueAttendees).toBe(everyone.length + came.length + 1);
      expect(attendees).toHaveLength(summary.uniqueAttendees);
      for (const v of everyone) expect(byId.get(v.participantId)?.intervals, v.participantId).toHaveLength(1);

      // The truth lies between joining when the socket was asked for and when the welcome came.
      const startedAt = Date.parse(summary.startedAt!);
      const minutesBetween = (from: number) => (endedAt - Math.max(from, startedAt)) / 60_000;
      const viewersTotal = everyone.reduce((s, v) => s + byId.get(v.participantId)!.minutes, 0);
      const upper = everyone.reduce((s, v) => s + minutesBetween(v.connectingAt), 0);
      const lower = everyone.reduce((s, v) => s + minutesBetween(v.welcomedAt), 0);
      expect(viewersTotal).toBeGreaterThanOrEqual(lower * 0.99);
      expect(viewersTotal).toBeLessThanOrEqual(upper * 1.01);

      expect(summary).toMatchObject({
        registrants: 4,
        registrantsAttended: 2,
        showUpRate: 0.5,
        questions: 1,
        polls: [
          {
            pollId: poll.pollId,
            question: 'Useful?',
            options: [
              { text: 'Yes', votes: voted.counts[0] },
              { text: 'No', votes: 0 },
            ],
          },
        ],
        pollVotes: 1,
        reactions: 3,
        chatLines: 2,
      });
      expect(summary.peakConcurrent).toBe(summary.uniqueAttendees);
      const registrant = byId.get(`entry:${came[0]!.registrationId}`)!;
      expect(registrant).toMatchObject({
        kind: 'registrant',
        registrationId: came[0]!.registrationId,
        name: 'R0',
      });
      expect(registrant.phases).toHaveLength(1);
      expect((await gc.registrations.retrieve(event.id, came[0]!.registrationId)).status).toBe('attended');

      const csv = (await gc.attendance.retrieveExport(event.id)) as unknown as string;
      expect(csv.trim().split('\r\n')).toHaveLength(summary.uniqueAttendees + 1);
    } finally {
      await Promise.all(everyone.map((v) => v.close().catch(() => {})));
      await Promise.all(raw.map((c) => c.close().catch(() => {})));
      await a?.kill();
      await b.close();
    }
  }, 300_000);
});
