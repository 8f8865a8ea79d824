import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { repeatedRaceBudgetMs } from './support/budgets';
import { domainEventsOf, eventIn } from './support/events';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

/** Every race is run this many times against the real server and database. */
const repetitions = 20;

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

const agenda = [
  { modality: 'broadcast' as const },
  { modality: 'meeting' as const },
  { modality: 'broadcast' as const },
  { modality: 'meeting' as const },
];

// Each test repeats its race several times: on a loaded 2-core machine that takes well over the default 30 s.
describe(`concurrent lifecycle calls (${repetitions} repetitions each)`, {
  timeout: repeatedRaceBudgetMs,
}, () => {
  it('two simultaneous unguarded advances move the agenda exactly twice', async () => {
    for (let i = 0; i < repetitions; i++) {
      const event = await eventIn(gc, 'live', agenda);
      await Promise.all([gc.events.advance(event.id, {}), gc.events.advance(event.id, {})]);
      const read = await gc.events.retrieve(event.id);
      expect(read.phases.map((p) => p.status)).toEqual(['ended', 'ended', 'active', 'pending']);
      expect(read.activePhaseId).toBe(read.phases[2]!.id);
    }
  });

  it('two simultaneous guarded advances with the same phaseId move it once', async () => {
    for (let i = 0; i < repetitions; i++) {
      const event = await eventIn(gc, 'live', agenda);
      const first = (await gc.events.retrieve(event.id)).phases[0]!.id;
      const answers = await Promise.all([
        gc.events.advance(event.id, { phaseId: first }),
        gc.events.advance(event.id, { phaseId: first }),
      ]);
      const read = await gc.events.retrieve(event.id);
      expect(read.phases.map((p) => p.status)).toEqual(['ended', 'active', 'pending', 'pending']);
      // Both callers see the same resulting state.
      expect(answers.map((a) => a.activePhaseId)).toEqual([read.phases[1]!.id, read.phases[1]!.id]);
    }
  });

  it('two simultaneous guarded advances on the last phase end the event once, with one event.ended', async () => {
    for (let i = 0; i < repetitions; i++) {
      const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
      const only = (await gc.events.retrieve(event.id)).phases[0]!.id;
      const answers = await Promise.all([
        gc.events.advance(event.id, { phaseId: only }),
        gc.events.advance(event.id, { phaseId: only }),
      ]);
      expect(answers.map((a) => a.status)).toEqual(['ended', 'ended']);
      const types = (await domainEventsOf(t.databaseUrl, event.id)).map((e) => e.type);
      expect(types.filter((x) => x === 'event.ended')).toHaveLength(1);
    }
  });

  it('simultaneous start calls start the event once: one succeeds, the rest get invalid_state', async () => {
    for (let i = 0; i < repetitions; i++) {
      const event = await eventIn(gc, 'scheduled', agenda);
      const results = await Promise.allSettled([0, 1, 2].map(() => gc.events.start(event.id)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 409, code: 'invalid_state' });
      const types = (await domainEventsOf(t.databaseUrl, event.id)).map((e) => e.type);
      expect(types.filter((x) => x === 'event.started')).toHaveLength(1);
    }
  });

  it('simultaneous phase appends get distinct consecutive positions', async () => {
    for (let i = 0; i < repetitions; i++) {
      const event = await eventIn(gc, 'draft', []);
      await Promise.all([0, 1, 2, 3].map(() => gc.phases.create(event.id, { modality: 'meeting' })));
      const read = await gc.events.retrieve(event.id);
      expect(read.phases.map((p) => p.position)).toEqual([0, 1, 2, 3]);
    }
  });
});
