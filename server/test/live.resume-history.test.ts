import { randomUUID } from 'node:crypto';
import type { GathercastClient } from '@gathercast/sdk';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIn } from './support/events';
import { createWorkspace, withDb } from './support/fixtures';
import { eventually, LiveClient, tokenFor } from './support/live';
import { startTestServer, type TestServer } from './support/server';

/*
 * The event history a resume replays from is bounded per event, by count (LIVE_HISTORY_MAX) and by
 * age (LIVE_RESUME_WINDOW_MS), on both backends: what is no longer kept is gone from the store, and a
 * resume that needs it is answered resume_failed.
 */
const redisUrl = 'redis://127.0.0.1:6379';
const max = 3;
const windowMs = 4000;

describe.each([
  ['PostgreSQL', {}],
  ['Redis', { REDIS_URL: redisUrl }],
])('live history bounds (%s)', (backend, env) => {
  let t: TestServer;
  let gc: GathercastClient;
  let redis: Redis | undefined;
  beforeAll(async () => {
    t = await startTestServer({
      LIVE_HISTORY_MAX: String(max),
      LIVE_RESUME_WINDOW_MS: String(windowMs),
      ...env,
    });
    gc = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
    if (backend === 'Redis') redis = new Redis(redisUrl);
  });
  afterAll(async () => {
    redis?.disconnect();
    await t.close();
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
