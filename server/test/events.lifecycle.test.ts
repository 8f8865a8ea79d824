import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { domainEventsOf, eventIn, rejection, type Status } from './support/events';
import { createWorkspace, type WorkspaceFixture } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
let ws: WorkspaceFixture;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, ws, gc } = started);
});

const threePhases = [
  { modality: 'broadcast' as const },
  { modality: 'breakout' as const, config: { roomSize: 4, durationSeconds: 600, extendable: true } },
  { modality: 'broadcast' as const },
];

describe('state table', () => {
  it('publish moves draft to scheduled, records publishedAt and fires event.published', async () => {
    const event = await eventIn(gc, 'draft');
    const after = await gc.events.publish(event.id);
    expect(after.status).toBe('scheduled');
    expect(after.publishedAt).not.toBeNull();
    expect((await domainEventsOf(t.databaseUrl, event.id)).map((e) => e.type)).toEqual(['event.published']);
  });

  it('start moves scheduled to live, activates the first phase and fires event.started', async () => {
    const event = await eventIn(gc, 'scheduled', threePhases);
    const after = await gc.events.start(event.id);
    expect(after.status).toBe('live');
    expect(after.startedAt).not.toBeNull();
    expect(after.activePhaseId).toBe(after.phases[0]!.id);
    expect(after.phases.map((p) => p.status)).toEqual(['active', 'pending', 'pending']);
    expect(after.phases[0]!.startedAt).toBe(after.startedAt);
    expect((await domainEventsOf(t.databaseUrl, event.id)).map((e) => e.type)).toEqual([
      'event.published',
      'event.started',
    ]);
  });

  it('start of an event without phases goes live with no active phase', async () => {
    const event = await eventIn(gc, 'scheduled', []);
    const after = await gc.events.start(event.id);
    expect(after).toMatchObject({ status: 'live', activePhaseId: null, phases: [] });
  });

  it('advance ends the active phase and starts the next', async () => {
    const event = await eventIn(gc, 'live', threePhases);
    const after = await gc.events.advance(event.id, {});
    expect(after.status).toBe('live');
    expect(after.phases.map((p) => p.status)).toEqual(['ended', 'active', 'pending']);
    expect(after.activePhaseId).toBe(after.phases[1]!.id);
    expect(after.phases[0]!.endedAt).toBe(after.phases[1]!.startedAt);
  });

  it('a phase with a timer gets endsAt = startedAt + its duration', async () => {
    const event = await eventIn(gc, 'live', threePhases);
    const after = await gc.events.advance(event.id, {});
    const breakout = after.phases[1]!;
    expect(new Date(breakout.endsAt!).getTime() - new Date(breakout.startedAt!).getTime()).toBe(600_000);
    expect(after.phases[0]!.endsAt).toBeNull();
  });

  it('a rotation’s timer is rounds × roundSeconds', async () => {
    const event = await eventIn(gc, 'live', [
      { modality: 'rotation', config: { rounds: 3, roundSeconds: 120 } },
    ]);
    const read = await gc.events.retrieve(event.id);
    const p = read.phases[0]!;
    expect(new Date(p.endsAt!).getTime() - new Date(p.startedAt!).getTime()).toBe(360_000);
  });

  it('advance from the last phase ends the event and fires event.ended', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    const after = await gc.events.advance(event.id, {});
    expect(after).toMatchObject({ status: 'ended', activePhaseId: null });
    expect(after.endedAt).not.toBeNull();
    expect(after.phases[0]).toMatchObject({ status: 'ended', endedAt: after.endedAt });
    expect((await domainEventsOf(t.databaseUrl, event.id)).map((e) => e.type)).toEqual([
      'event.published',
      'event.started',
      'event.ended',
    ]);
  });

  it('advance of a live event without phases ends it', async () => {
    const event = await eventIn(gc, 'live', []);
    const after = await gc.events.advance(event.id, {});
    expect(after.status).toBe('ended');
  });

  it('walks a three-phase agenda to the end, one advance per phase', async () => {
    const event = await eventIn(gc, 'live', threePhases);
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await gc.events.advance(event.id, {})).status);
    expect(statuses).toEqual(['live', 'live', 'ended']);
    const read = await gc.events.retrieve(event.id);
    expect(read.phases.map((p) => p.status)).toEqual(['ended', 'ended', 'ended']);
  });

  it('end moves live to ended, ends the active phase and fires event.ended', async () => {
    const event = await eventIn(gc, 'live', threePhases);
    const after = await gc.events.end(event.id);
    expect(after).toMatchObject({ status: 'ended', activePhaseId: null });
    expect(after.phases.map((p) => p.status)).toEqual(['ended', 'pending', 'pending']);
    expect((await domainEventsOf(t.databaseUrl, event.id)).map((e) => e.type)).toContain('event.ended');
  });

  it('end cancels a scheduled event and fires event.canceled (not event.ended)', async () => {
    const event = await eventIn(gc, 'scheduled');
    const after = await gc.events.end(event.id);
    expect(after.status).toBe('ended');
    expect(after.startedAt).toBeNull();
    expect((await domainEventsOf(t.databaseUrl, event.id)).map((e) => e.type)).toEqual([
      'event.published',
      'event.canceled',
    ]);
  });

  it('records the domain events with the event’s workspace', async () => {
    const event = await eventIn(gc, 'ended');
    const recorded = await domainEventsOf(t.databaseUrl, event.id);
    expect(recorded.every((e) => e.workspace_id === ws.workspaceId)).toBe(true);
  });
});

describe('outbox', () => {
  it('rolls the transition back when its domain event cannot be recorded', async () => {
    const event = await eventIn(gc, 'draft');
    t.server.ctx.bus.subscribe(async (_em, recorded) => {
      if (recorded.eventId === event.id) throw new Error('subscriber refused');
    });
    const err = await rejection(gc.events.publish(event.id));
    expect(err).toMatchObject({ status: 500, code: 'internal_error' });
    expect((await gc.events.retrieve(event.id)).status).toBe('draft');
    expect(await domainEventsOf(t.databaseUrl, event.id)).toEqual([]);
  });
});

describe('wrong-state transitions answer 409 invalid_state and change nothing', () => {
  const wrong: [action: 'publish' | 'start' | 'advance' | 'end', from: Status][] = [
    ['publish', 'scheduled'],
    ['publish', 'live'],
    ['publish', 'ended'],
    ['start', 'draft'],
    ['start', 'live'],
    ['start', 'ended'],
    ['advance', 'draft'],
    ['advance', 'scheduled'],
    ['advance', 'ended'],
    ['end', 'draft'],
    ['end', 'ended'],
  ];
  for (const [action, from] of wrong) {
    it(`${action} from ${from}`, async () => {
      const event = await eventIn(gc, from);
      const before = await gc.events.retrieve(event.id);
      const err = await rejection(gc.events[action](event.id));
      expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
      expect(await gc.events.retrieve(event.id)).toEqual(before);
    });
  }

  it('a guarded advance of a draft is still invalid_state', async () => {
    const event = await eventIn(gc, 'draft');
    const read = await gc.events.retrieve(event.id);
    const err = await rejection(gc.events.advance(event.id, { phaseId: read.phases[0]!.id }));
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
  });

  it('a failed transition records no domain event', async () => {
    const event = await eventIn(gc, 'draft');
    await rejection(gc.events.end(event.id));
    expect(await domainEventsOf(t.databaseUrl, event.id)).toEqual([]);
  });
});

describe('guarded advance', () => {
  it('advances while the named phase is active', async () => {
    const event = await eventIn(gc, 'live', threePhases);
    const live = await gc.events.retrieve(event.id);
    const after = await gc.events.advance(event.id, { phaseId: live.phases[0]!.id });
    expect(after.activePhaseId).toBe(live.phases[1]!.id);
  });

  it('answers the current state without moving when the named phase is no longer active', async () => {
    const event = await eventIn(gc, 'live', threePhases);
    const live = await gc.events.retrieve(event.id);
    await gc.events.advance(event.id, { phaseId: live.phases[0]!.id });
    const stale = await gc.events.advance(event.id, { phaseId: live.phases[0]!.id });
    expect(stale.activePhaseId).toBe(live.phases[1]!.id);
    expect(stale.phases.map((p) => p.status)).toEqual(['ended', 'active', 'pending']);
  });

  it('never skips a pending phase named by the guard', async () => {
    const event = await eventIn(gc, 'live', threePhases);
    const live = await gc.events.retrieve(event.id);
    const after = await gc.events.advance(event.id, { phaseId: live.phases[2]!.id });
    expect(after.activePhaseId).toBe(live.phases[0]!.id);
  });

  it('answers the ended state when the guard names the phase that ended the event', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    const live = await gc.events.retrieve(event.id);
    await gc.events.advance(event.id, { phaseId: live.phases[0]!.id });
    const again = await gc.events.advance(event.id, { phaseId: live.phases[0]!.id });
    expect(again.status).toBe('ended');
  });

  it('refuses a phaseId of another event with 400 bad_request', async () => {
    const event = await eventIn(gc, 'live');
    const other = await gc.events.retrieve((await eventIn(gc, 'draft')).id);
    const err = await rejection(gc.events.advance(event.id, { phaseId: other.phases[0]!.id }));
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
  });
});

describe('access', () => {
  it('answers 404 for another workspace’s event on every transition', async () => {
    const other = await createWorkspace(t.databaseUrl);
    const theirs = await t.client({ apiKey: other.apiKey }).events.create({ type: 'x', title: 'x' });
    for (const action of ['publish', 'start', 'advance', 'end'] as const) {
      expect(await rejection(gc.events[action](theirs.id))).toMatchObject({ status: 404 });
    }
  });

  it('lets a member’s account session run the lifecycle', async () => {
    const asOwner = t.client({ sessionToken: ws.sessionToken });
    const event = await asOwner.events.create({ type: 'x', title: 'x' });
    expect((await asOwner.events.publish(event.id)).status).toBe('scheduled');
  });
});
