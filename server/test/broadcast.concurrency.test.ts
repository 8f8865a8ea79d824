import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { repeatedRaceBudgetMs } from './support/budgets';
import { domainEventsOf, eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * Simultaneous broadcast calls against the real server and database: the event row lock serializes
 * them, so state never tears and every transition fires its webhook exactly once.
 */

const repetitions = 8;
const parallel = 10;

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

const start = (id: string) => gc.broadcast.start(id);
const pause = (id: string) => gc.broadcast.pause(id);

/** The broadcast webhooks recorded for an event, sorted by type: changes within one millisecond have no order. */
const broadcastTypes = async (eventId: string) =>
  (await domainEventsOf(t.databaseUrl, eventId))
    .map((e) => e.type)
    .filter((x) => x.startsWith('broadcast.'))
    .sort();

const broadcastRows = (eventId: string) =>
  withDb(
    t.databaseUrl,
    async (db) =>
      (
        await db.query<{ id: string; status: string }>(
          'select id, status from broadcast where event_id = $1',
          [eventId],
        )
      ).rows,
  );

const liveBroadcastEvent = (phases: ('broadcast' | 'meeting')[] = ['broadcast']) =>
  eventIn(
    gc,
    'live',
    phases.map((modality) => ({ modality })),
  );

// Each test repeats its race several times: on a loaded 2-core machine that takes well over the default 30 s.
describe(`concurrent broadcast calls (${repetitions} repetitions each)`, {
  timeout: repeatedRaceBudgetMs,
}, () => {
  it(`${parallel} simultaneous starts create one broadcast, answer it to all, and fire one broadcast.live`, async () => {
    for (let i = 0; i < repetitions; i++) {
      const event = await liveBroadcastEvent();
      const answers = await Promise.all(Array.from({ length: parallel }, () => start(event.id)));
      const ids = new Set(answers.map((a) => a.broadcastId));
      expect(ids.size).toBe(1);
      expect(answers.every((a) => a.status === 'live')).toBe(true);
      expect(await broadcastTypes(event.id)).toEqual(['broadcast.live']);
      expect(await broadcastRows(event.id)).toEqual([{ id: [...ids][0], status: 'live' }]);
    }
  });

  it(`${parallel} simultaneous resumes of a paused broadcast fire one broadcast.live`, async () => {
    for (let i = 0; i < repetitions; i++) {
      const event = await liveBroadcastEvent();
      const { broadcastId } = await start(event.id);
      await pause(event.id);
      const answers = await Promise.all(Array.from({ length: parallel }, () => start(event.id)));
      expect(answers.every((a) => a.broadcastId === broadcastId && a.status === 'live')).toBe(true);
      expect(await broadcastTypes(event.id)).toEqual([
        'broadcast.live',
        'broadcast.live',
        'broadcast.paused',
      ]);
    }
  });

  it(`${parallel} simultaneous pauses: one succeeds, the rest get invalid_state, one broadcast.paused`, async () => {
    for (let i = 0; i < repetitions; i++) {
      const event = await liveBroadcastEvent();
      await start(event.id);
      const results = await Promise.allSettled(Array.from({ length: parallel }, () => pause(event.id)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 409, code: 'invalid_state' });
      expect(await broadcastTypes(event.id)).toEqual(['broadcast.live', 'broadcast.paused']);
    }
  });

  it('interleaved starts and pauses fire one webhook per flip, and the flips add up to the stored state', async () => {
    for (let i = 0; i < repetitions; i++) {
      const event = await liveBroadcastEvent();
      await start(event.id);
      const calls = Array.from({ length: parallel }, (_, k) =>
        k % 2 === 0 ? pause(event.id) : start(event.id),
      );
      const results = await Promise.allSettled(calls);
      const pausesOk = results.filter((r, k) => k % 2 === 0 && r.status === 'fulfilled').length;

      const types = await broadcastTypes(event.id);
      const lives = types.filter((x) => x === 'broadcast.live').length;
      const pauses = types.filter((x) => x === 'broadcast.paused').length;
      // Every change flips the state (live, paused, live, …) and fires once, so the counts tell the end state.
      expect(pauses).toBe(pausesOk);
      expect([0, 1]).toContain(lives - pauses);
      const rows = await broadcastRows(event.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe(lives - pauses === 1 ? 'live' : 'paused');
    }
  });

  it('a start racing the advance out of the broadcast phase never leaves a broadcast running', async () => {
    for (let i = 0; i < repetitions; i++) {
      const event = await liveBroadcastEvent(['broadcast', 'meeting']);
      const [started] = await Promise.allSettled([start(event.id), gc.events.advance(event.id, {})]);
      if (started.status === 'rejected') {
        // The advance won: there was no broadcast phase left to start.
        expect(started.reason).toMatchObject({ status: 409, code: 'invalid_state' });
        expect(await broadcastRows(event.id)).toEqual([]);
      } else {
        // The start won: the advance then ended the broadcast with its phase.
        expect(await broadcastRows(event.id)).toEqual([{ id: started.value.broadcastId, status: 'ended' }]);
      }
      expect((await t.client().public.retrieveEvent(event.id)).activeBroadcast).toBeNull();
    }
  });
});
