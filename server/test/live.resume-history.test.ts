import { randomUUID } from 'node:crypto';
import type { GathercastClient } from '@gathercast/sdk';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { eventually, LiveClient, tokenFor } from './support/live';
import { testRedisUrl } from './support/redis';
import type { TestServer } from './support/server';

/*
 * The event history a resume replays from is bounded per event, by count (LIVE_HISTORY_MAX) and by
 * age (LIVE_RESUME_WINDOW_MS), on both backends: what is no longer kept is gone from the store, and a
 * resume that needs it is answered resume_failed.
 */
const redisUrl = testRedisUrl();
const max = 3;
const windowMs = 4000;

describe.each([
  ['PostgreSQL', {}],
  ['Redis', { REDIS_URL: redisUrl }],
])('live history bounds (%s)', (backend, env) => {
  let t: TestServer;
  let gc: GathercastClient;
  let redis: Redis | undefined;
  useServerWithWorkspace(
    { LIVE_HISTORY_MAX: String(max), LIVE_RESUME_WINDOW_MS: String(windowMs), ...env },
    (started) => {
      ({ t, gc } = started);
    },
  );
  // Registered after the server's hooks: connected once the server is up, disconnected before it closes.
  beforeAll(() => {
    if (backend === 'Redis') redis = new Redis(redisUrl);
  });
  afterAll(() => {
    redis?.disconnect();
  });

  /** What the store keeps for the event: each envelope's seq and age (by the store's own clock). */
  async function kept(eventId: string): Promise<{ seq: number; ageMs: number }[]> {
    if (!redis)
      return withDb(t.databaseUrl, async (db) => {
        const { rows } = await db.query<{ seq: string; age: number }>(
          `select seq, extract(epoch from now() - created_at) * 1000 as age
             from live_history where event_id = $1 order by seq`,
          [eventId],
        );
        return rows.map((r) => ({ seq: Number(r.seq), ageMs: Number(r.age) }));
      });
    const database = new URL(t.databaseUrl).pathname.slice(1);
    const [[seconds, micros], entries] = await Promise.all([
      redis.time(),
      redis.xrange(`gc:live:${database}:hist:{${eventId}}`, '-', '+'),
    ]);
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    return entries.map(([id, fields]) => ({ seq: Number(fields[1]), ageMs: now - Number(id.split('-')[0]) }));
  }

  async function setUp() {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
    const host = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'host' }));
    const token = await tokenFor(t.server, event.id, { role: 'participant', userId: randomUUID() });
    const me = await LiveClient.join(t.server, token);
    const secret = me.all('welcome')[0]!.resume.secret;
    /** A resume of `me` from `after`: its welcome and the messages that followed. */
    const resume = async (after: number) => {
      const socket = await LiveClient.join(t.server, token, { resume: secret, after: String(after) });
      await socket.next('audience');
      return socket;
    };
    /** The host chats; resolves with the seq the line got. */
    const chat = async (text: string) => {
      host.send({ type: 'chat.send', text });
      return (await host.next('chat.message', (m) => m.text === text)).seq!;
    };
    return { event, host, me, resume, chat };
  }

  it('keeps at most LIVE_HISTORY_MAX messages of an event; a resume from before them fails, one within them replays', async () => {
    const { event, host, me, resume, chat } = await setUp();
    const seqs: number[] = [];
    for (let i = 1; i <= 5; i++) seqs.push(await chat(`line ${i}`));
    expect((await kept(event.id)).map((k) => k.seq)).toEqual(seqs.slice(-max));

    const tooEarly = await resume(seqs[1]! - 1);
    expect(tooEarly.all('welcome')[0]!.resumed).toBeNull();
    expect(tooEarly.all('error')).toMatchObject([{ code: 'resume_failed' }]);

    const within = await resume(seqs[1]!);
    expect(within.all('welcome')[0]!.resumed).toEqual({ after: seqs[1], replayed: max });
    expect(within.all('chat.message').map((m) => m.text)).toEqual(['line 3', 'line 4', 'line 5']);
    for (const c of [host, me, tooEarly, within]) await c.close();
  });

  it('keeps no room in the history for resumes: more resumes than LIVE_HISTORY_MAX from one position all replay', async () => {
    const { event, host, me, resume, chat } = await setUp();
    const before = await chat('before');
    const missed = await chat('missed');
    const resumes: LiveClient[] = [];
    for (let i = 0; i < max + 2; i++) {
      const socket = await resume(before);
      expect(socket.all('welcome')[0]!.resumed).toEqual({ after: before, replayed: 1 });
      expect(socket.all('chat.message').map((m) => m.text)).toEqual(['missed']);
      resumes.push(socket);
    }
    // A resume is a notice between processes, not a message of the event: it took no seq either.
    expect((await kept(event.id)).at(-1)?.seq).toBe(missed);
    expect(await chat('next')).toBe(missed + 1);
    for (const c of [host, me, ...resumes]) await c.close();
  });

  it('answers resumes made at once from different positions each on its own: a trimmed one fails, the others replay their part', async () => {
    const { host, me, resume, chat } = await setUp();
    const seqs: number[] = [];
    for (let i = 1; i <= 5; i++) seqs.push(await chat(`line ${i}`));
    // Sockets coming back together share history reads; the oldest position decides nothing for the rest.
    const [trimmed, fromTwo, fromThree, fromFive] = await Promise.all(
      [seqs[0]!, seqs[1]!, seqs[2]!, seqs[4]!].map((after) => resume(after)),
    );
    expect(trimmed!.all('error')).toMatchObject([{ code: 'resume_failed' }]);
    const replayed = (c: LiveClient) => [
      c.all('welcome')[0]!.resumed,
      c.all('chat.message').map((m) => m.text),
    ];
    expect(replayed(fromTwo!)).toEqual([{ after: seqs[1], replayed: 3 }, ['line 3', 'line 4', 'line 5']]);
    expect(replayed(fromThree!)).toEqual([{ after: seqs[2], replayed: 2 }, ['line 4', 'line 5']]);
    expect(replayed(fromFive!)).toEqual([{ after: seqs[4], replayed: 0 }, []]);
    for (const c of [host, me, trimmed!, fromTwo!, fromThree!, fromFive!]) await c.close();
  });

  it("drops an event's messages older than the window on its next message", async () => {
    const { event, host, me, resume, chat } = await setUp();
    const old = await chat('old');
    // Everything kept so far (the old line and what came before it) has outlived the window.
    await eventually(
      () => kept(event.id),
      (k) => k.some((e) => e.seq === old) && k.every((e) => e.ageMs > windowMs),
    );
    const fresh = await chat('fresh');
    expect((await kept(event.id)).map((k) => k.seq)).toEqual([fresh]);

    const fromBeforeOld = await resume(old - 1);
    expect(fromBeforeOld.all('error')).toMatchObject([{ code: 'resume_failed' }]);
    const fromOld = await resume(old);
    expect(fromOld.all('welcome')[0]!.resumed).toEqual({ after: old, replayed: 1 });
    expect(fromOld.all('chat.message').map((m) => m.text)).toEqual(['fresh']);
    for (const c of [host, me, fromBeforeOld, fromOld]) await c.close();
  });
});
