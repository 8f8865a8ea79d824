import { describe, expect, it } from 'vitest';
import type { LiveConnection } from '../src/live/connection';
import { pingAll } from '../src/live/keep-alive';

/*
 * The gateway's keep-alive round: every socket is pinged, and one that has not answered the previous
 * ping (no pong set `alive` again) is dropped. A client that vanished without a close (a laptop
 * closed, a network gone) thus leaves within two rounds, and its presence with it.
 */
function socket(alive: boolean) {
  const calls: string[] = [];
  const ws = { OPEN: 1, readyState: 1, ping: () => calls.push('ping'), terminate: () => calls.push('terminate') };
  const conn = { alive, ws } as unknown as LiveConnection;
  return { conn, calls };
}

describe('keep-alive', () => {
  it('pings a socket that answered the last ping, and waits for its answer', async () => {
    const answered = socket(true);
    await pingAll([answered.conn]);
    expect(answered.calls).toEqual(['ping']);
    expect(answered.conn.alive).toBe(false);
  });

  it('drops a socket that did not answer the last ping', async () => {
    const silent = socket(false);
    await pingAll([silent.conn]);
    expect(silent.calls).toEqual(['terminate']);
  });

  it('goes round a large audience in slices and reaches every socket', async () => {
    const audience = Array.from({ length: 1200 }, () => socket(true));
    await pingAll(audience.map((s) => s.conn));
    expect(audience.every((s) => s.calls.join() === 'ping')).toBe(true);
  });
});
