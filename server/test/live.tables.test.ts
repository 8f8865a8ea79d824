import type { GathercastClient } from '@gathercast/sdk';
import { TokenVerifier } from 'livekit-server-sdk';
import { describe, expect, it } from 'vitest';
import { groupIntoTables, pairsOf, tableCapacities } from '../src/live/grouping';
import type { RunningServer } from '../src/server';
import { eventIn } from './support/events';
import { useServerAndReplica } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';
import type { TestServer } from './support/server';

let t: TestServer;
let replica: RunningServer;
let gc: GathercastClient;
useServerAndReplica((started) => {
  ({ t, replica, gc } = started);
});

const verify = (token: string | null) =>
  new TokenVerifier('devkey', 'devsecret_devsecret_devsecret_devsecret').verify(token!);
/** Participants spread over both processes (even on the test server, odd on the replica) unless told. */
const participants = (eventId: string, count: number, on?: RunningServer) =>
  Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const server = on ?? (i % 2 ? replica : t.server);
      return LiveClient.join(
        server,
        await tokenFor(server, eventId, { role: 'participant', via: 'entry', name: `P${i}` }),
      );
    }),
  );

describe('table grouping', () => {
  it('balances tables: as few as roomSize allows, sizes within one of each other', () => {
    expect(tableCapacities(5, 2)).toEqual([2, 2, 1]);
    expect(tableCapacities(9, 4)).toEqual([3, 3, 3]);
    expect(tableCapacities(8, 4)).toEqual([4, 4]);
    const seats = groupIntoTables(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 3);
    const sizes = [...new Set(seats.values())].map((t) => [...seats.values()].filter((x) => x === t).length);
    expect(sizes.sort()).toEqual([2, 2, 3]);
  });

  it('regroups rotation rounds without repeating a pair while that is possible', () => {
    // After any two rounds of six people in pairs a third without repeats always exists; four
    // people have exactly three such rounds.
    for (const [ids, rounds] of [
      [['a', 'b', 'c', 'd', 'e', 'f'], 3],
      [['a', 'b', 'c', 'd'], 3],
    ] as const) {
      for (let attempt = 0; attempt < 20; attempt++) {
        const met = new Set<string>();
        for (let round = 1; round <= rounds; round++) {
          for (const pair of pairsOf(groupIntoTables([...ids], 2, met))) {
            expect(met.has(pair)).toBe(false);
            met.add(pair);
          }
        }
        expect(met.size).toBe((ids.length / 2) * rounds);
      }
    }
  });
});

describe('breakout tables', () => {
  it('seats everyone at balanced tables of roomSize when the breakout starts, with the table room grant', async () => {
    const event = await eventIn(gc, 'live', [
      { modality: 'meeting' },
      { modality: 'breakout', config: { roomSize: 2 } },
    ]);
    const people = await participants(event.id, 5);
    const host = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'host' }));
    await gc.events.advance(event.id, {});
    const assigned = await Promise.all(people.map((p) => p.next('table.assigned')));
    const counts = new Map<number, number>();
    for (const a of assigned) counts.set(a.table, (counts.get(a.table) ?? 0) + 1);
    expect([...counts.values()].sort()).toEqual([1, 2, 2]);
    expect([...counts.keys()].sort()).toEqual([1, 2, 3]);
    for (const a of assigned) {
      expect(a.room).toBe(`evt_${event.id}_table_${a.table}`);
      expect(a.media).toMatchObject({ room: a.room, canPublish: true, canSubscribe: true, roomAdmin: false });
      expect((await verify(a.media.token)).video).toMatchObject({ room: a.room, canPublish: true });
    }
    const changed = await host.next('phase.changed');
    expect(changed.media).toMatchObject({ token: null, roomAdmin: true });
    expect(host.all('table.assigned')).toEqual([]);
    for (const c of [...people, host]) await c.close();
  });

  it('seats a late arrival at the emptiest table', async () => {
    const event = await eventIn(gc, 'live', [
      { modality: 'meeting' },
      { modality: 'breakout', config: { roomSize: 3 } },
    ]);
    const people = await participants(event.id, 4);
    // Each socket's messages are handled once its join is recorded: after the pongs all four count as
    // present on both processes, so the first round is drawn for four.
    for (const p of people) p.send({ type: 'ping' });
    await Promise.all(people.map((p) => p.next('pong')));
    await gc.events.advance(event.id, {});
    const assigned = await Promise.all(people.map((p) => p.next('table.assigned')));
    expect(assigned.map((a) => a.table).sort()).toEqual([1, 1, 2, 2]);
    const [late] = await participants(event.id, 1);
    expect([1, 2]).toContain((await late!.next('table.assigned')).table);
    for (const c of [...people, late!]) await c.close();
  });

  it('lets a host observe any table with a hidden subscribe-only seat, and nobody else', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'breakout', config: { roomSize: 2 } }]);
    const people = await participants(event.id, 2);
    await Promise.all(people.map((p) => p.next('table.assigned')));
    const host = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'host' }));
    host.send({ type: 'table.observe', table: 1 });
    const observed = await host.next('table.assigned');
    expect(observed).toMatchObject({
      table: 1,
      room: `evt_${event.id}_table_1`,
      media: { canPublish: false, canSubscribe: true, roomAdmin: true },
    });
    expect((await verify(observed.media.token)).video).toMatchObject({
      hidden: true,
      canPublish: false,
      roomAdmin: true,
    });
    host.send({ type: 'table.observe', table: 9 });
    expect(await host.next('error')).toMatchObject({ code: 'not_found' });
    people[0]!.send({ type: 'table.observe', table: 1 });
    expect(await people[0]!.next('error')).toMatchObject({ code: 'forbidden' });
    for (const c of [...people, host]) await c.close();
  });
});

describe('rotation tables', () => {
  it('seats attendees in pairs when the rotation starts and regroups them with new partners next round', async () => {
    const event = await eventIn(gc, 'live', [
      { modality: 'meeting' },
      { modality: 'rotation', config: { rounds: 2, roundSeconds: 30 } },
    ]);
    const people = await participants(event.id, 4);
    await gc.events.advance(event.id, {});
    const round1 = await Promise.all(people.map((p) => p.next('table.assigned')));
    expect(round1.map((a) => a.table).sort()).toEqual([1, 1, 2, 2]);
    const round2 = await Promise.all(people.map((p) => p.next('table.assigned', () => true, 40_000)));
    const partners = (round: { table: number }[]) =>
      round.map((a, i) => round.findIndex((b, j) => j !== i && b.table === a.table));
    const before = partners(round1);
    const after = partners(round2);
    for (let i = 0; i < 4; i++) expect(after[i]).not.toBe(before[i]);
    for (const c of people) await c.close();
  }, 60_000);
});
