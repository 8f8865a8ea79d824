import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn, rejection } from './support/events';
import { createWorkspace, withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

const breakout = (config: Record<string, unknown>) => [{ modality: 'breakout' as const, config }];
const firstPhase = async (eventId: string) => (await gc.events.retrieve(eventId)).phases[0]!;

describe('append', () => {
  it('appends at the end of the agenda with 201 and the phase', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'broadcast' }]);
    const res = await gc.raw.phases.create(event.id, { modality: 'meeting', featureSet: ['chat'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      eventId: event.id,
      position: 1,
      modality: 'meeting',
      status: 'pending',
      featureSet: ['chat'],
    });
  });

  it('drops duplicate features', async () => {
    const event = await eventIn(gc, 'draft', []);
    const phase = await gc.phases.create(event.id, { modality: 'meeting', featureSet: ['qa', 'qa', 'chat'] });
    expect(phase.featureSet).toEqual(['qa', 'chat']);
  });

  it('appends to a live event; the phase waits its turn', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast' }]);
    const phase = await gc.phases.create(event.id, { modality: 'meeting' });
    expect(phase.status).toBe('pending');
    const after = await gc.events.advance(event.id, {});
    expect(after.activePhaseId).toBe(phase.id);
  });

  it('lets a live event started without phases advance into an appended one', async () => {
    const event = await eventIn(gc, 'live', []);
    const phase = await gc.phases.create(event.id, { modality: 'meeting' });
    expect((await gc.events.advance(event.id, {})).activePhaseId).toBe(phase.id);
  });

  it('refuses to append to an ended event with 409 invalid_state', async () => {
    const event = await eventIn(gc, 'ended');
    const err = await rejection(gc.phases.create(event.id, { modality: 'meeting' }));
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
  });

  it('refuses an out-of-range rotation config with 400 naming the fields', async () => {
    const event = await eventIn(gc, 'draft', []);
    const err = await rejection(
      gc.phases.create(event.id, { modality: 'rotation', config: { rounds: 0, roundSeconds: 5 } }),
    );
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    expect(err.errors?.map((e) => e.path).sort()).toEqual(['body.config.roundSeconds', 'body.config.rounds']);
  });

  it('answers 404 for another workspace’s event', async () => {
    const theirs = await eventIn(
      t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey }),
      'draft',
    );
    const err = await rejection(gc.phases.create(theirs.id, { modality: 'meeting' }));
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('update', () => {
  it('merges config keys into the stored config', async () => {
    const event = await eventIn(gc, 'draft', breakout({ roomSize: 4, durationSeconds: 600 }));
    const phase = await firstPhase(event.id);
    const updated = await gc.phases.update(phase.id, { config: { roomSize: 8 } });
    expect(updated.config).toEqual({ roomSize: 8, durationSeconds: 600, extendable: false });
  });

  it('clears the breakout timer with durationSeconds null', async () => {
    const event = await eventIn(gc, 'draft', breakout({ durationSeconds: 600 }));
    const phase = await firstPhase(event.id);
    const updated = await gc.phases.update(phase.id, { config: { durationSeconds: null } });
    expect(updated.config.durationSeconds).toBeNull();
  });

  it('replaces the feature set', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'broadcast', featureSet: ['qa'] }]);
    const phase = await firstPhase(event.id);
    const updated = await gc.phases.update(phase.id, { featureSet: ['polls', 'reactions'] });
    expect(updated.featureSet).toEqual(['polls', 'reactions']);
  });

  it('refuses a config key the modality does not have with 400 bad_request', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'broadcast' }]);
    const phase = await firstPhase(event.id);
    const err = await rejection(gc.phases.update(phase.id, { config: { roomSize: 4 } }));
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    expect(err.errors?.map((e) => e.path)).toEqual(['body.config']);
  });

  it('refuses a wrongly typed config value with 400 naming it', async () => {
    const event = await eventIn(gc, 'draft', breakout({}));
    const phase = await firstPhase(event.id);
    const err = await rejection(gc.phases.update(phase.id, { config: { roomSize: 'big' } }));
    expect(err.errors?.map((e) => e.path)).toEqual(['body.config.roomSize']);
  });

  it('refuses a modality change (unknown body key) with 400', async () => {
    const event = await eventIn(gc, 'draft', [{ modality: 'broadcast' }]);
    const phase = await firstPhase(event.id);
    const err = await rejection(gc.phases.update(phase.id, { modality: 'meeting' } as never));
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('edits a phase of a live event', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast' }]);
    const phase = await firstPhase(event.id);
    expect((await gc.phases.update(phase.id, { featureSet: ['qa'] })).featureSet).toEqual(['qa']);
  });

  it('refuses to edit a phase of an ended event with 409 invalid_state', async () => {
    const event = await eventIn(gc, 'ended');
    const phase = await firstPhase(event.id);
    const err = await rejection(gc.phases.update(phase.id, { featureSet: [] }));
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
  });

  it('answers 404 for another workspace’s phase', async () => {
    const theirs = await eventIn(
      t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey }),
      'draft',
    );
    const theirPhase = await withDb(
      t.databaseUrl,
      async (db) =>
        (await db.query('select id from phase where event_id = $1', [theirs.id])).rows[0].id as string,
    );
    const err = await rejection(gc.phases.update(theirPhase, { featureSet: [] }));
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('extend', () => {
  it('adds seconds to the active phase’s timer', async () => {
    const event = await eventIn(gc, 'live', breakout({ durationSeconds: 600, extendable: true }));
    const phase = await firstPhase(event.id);
    const extended = await gc.phases.extend(phase.id, { seconds: 120 });
    expect(new Date(extended.endsAt!).getTime() - new Date(phase.endsAt!).getTime()).toBe(120_000);
  });

  it('extends a rotation', async () => {
    const event = await eventIn(gc, 'live', [
      { modality: 'rotation', config: { rounds: 2, roundSeconds: 60 } },
    ]);
    const phase = await firstPhase(event.id);
    const extended = await gc.phases.extend(phase.id, { seconds: 10 });
    expect(new Date(extended.endsAt!).getTime() - new Date(phase.endsAt!).getTime()).toBe(10_000);
  });

  it('accepts 10 and 3600 seconds and refuses 9 and 3601 with 400', async () => {
    const event = await eventIn(gc, 'live', breakout({ durationSeconds: 600, extendable: true }));
    const phase = await firstPhase(event.id);
    await gc.phases.extend(phase.id, { seconds: 10 });
    await gc.phases.extend(phase.id, { seconds: 3600 });
    for (const seconds of [9, 3601, 10.5]) {
      const err = await rejection(gc.phases.extend(phase.id, { seconds }));
      expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    }
  });

  it('refuses a breakout that is not extendable with 409 invalid_state', async () => {
    const event = await eventIn(gc, 'live', breakout({ durationSeconds: 600, extendable: false }));
    const phase = await firstPhase(event.id);
    const err = await rejection(gc.phases.extend(phase.id, { seconds: 60 }));
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
  });

  it('refuses a pending phase with 409 invalid_state', async () => {
    const event = await eventIn(gc, 'live', [
      { modality: 'broadcast' },
      ...breakout({ durationSeconds: 600, extendable: true }),
    ]);
    const pending = (await gc.events.retrieve(event.id)).phases[1]!;
    const err = await rejection(gc.phases.extend(pending.id, { seconds: 60 }));
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
  });

  it('refuses an ended phase with 409 invalid_state', async () => {
    const event = await eventIn(gc, 'ended', breakout({ durationSeconds: 600, extendable: true }));
    const phase = await firstPhase(event.id);
    const err = await rejection(gc.phases.extend(phase.id, { seconds: 60 }));
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
  });

  it('refuses a phase without a timer with 409 invalid_state', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    const phase = await firstPhase(event.id);
    const err = await rejection(gc.phases.extend(phase.id, { seconds: 60 }));
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
  });
});
