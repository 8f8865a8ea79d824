import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveAudience, type RoomAudience } from '../src/live/audience-counts';
import type { LiveConnection } from '../src/live/connection';
import { type AudienceCounts, noAudience } from '../src/live/presence-store';

/**
 * The periodic counts give way to a burst: while the process is busy (a host's message being fanned
 * out, a join storm), a large audience's counts wait, at most two of its intervals since the last
 * send; a small audience's go out every second regardless (a room hears them as before).
 */
const intervalMs = 1000;

/** An event whose counts change at every read, and how many `audience` messages each socket got. */
function eventOf(sockets: number) {
  const received = { n: 0 };
  const conns = Array.from({ length: sockets }, () => ({
    send: () => {
      received.n++;
    },
  })) as unknown as LiveConnection[];
  let viewers = 0;
  const counts = async (): Promise<AudienceCounts> => ({ ...noAudience(), viewer: ++viewers });
  return { conns, counts, sends: () => received.n / sockets };
}

let busy = false;
let audience: LiveAudience;
let rooms: { sockets: Set<LiveConnection>; audience: RoomAudience }[] = [];
const large = eventOf(2500); // every 1.25 s at 2,000 sends a second
const small = eventOf(10);

/** One tick of the interval, and the sends it started (they go 500 sockets a turn). */
async function tick(): Promise<void> {
  await vi.advanceTimersByTimeAsync(intervalMs);
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  audience = new LiveAudience(
    {
      counts: (eventId) => (eventId === 'large' ? large.counts() : small.counts()),
      rooms: () => rooms,
      busy: () => busy,
    },
    pino({ level: 'silent' }),
    intervalMs,
  );
  const room = (eventId: string, conns: LiveConnection[]) => ({
    sockets: new Set(conns),
    audience: audience.forRoom(eventId),
  });
  rooms = [room('large', large.conns), room('small', small.conns)];
  audience.start();
});
afterEach(() => {
  audience.stop();
  vi.useRealTimers();
});

describe('audience counts during a burst', () => {
  it("hold a large audience's counts while busy, for at most two of its intervals, and send a small one's", async () => {
    await tick(); // t = 1 s: the first counts, busy or not
    expect([large.sends(), small.sends()]).toEqual([1, 1]);
    busy = true;
    await tick(); // 1 s since the last: due, held
    await tick(); // 2 s: held (up to 2.5 s)
    expect(large.sends()).toBe(1);
    expect(small.sends()).toBe(3);
    await tick(); // 3 s: held long enough, sent
    expect(large.sends()).toBe(2);
    busy = false;
    await tick(); // due and not busy: sent
    expect(large.sends()).toBe(3);
  });
});
