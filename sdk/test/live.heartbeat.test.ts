import { describe, expect, it, vi } from 'vitest';
import { announcement, connect, dialed, lastDialed, nextAttempt, useFakeGateway, welcome } from './support/fake-gateway';

/*
 * LiveConnection's heartbeat: pings on a quiet socket and gives up one that answers nothing, against
 * the in-process stand-in for the gateway (support/fake-gateway.ts) on Vitest's fake clock.
 */
useFakeGateway();

describe('LiveConnection heartbeat', () => {
  const heartbeat = { intervalMs: 1000, timeoutMs: 500 };
  const pings = () => lastDialed().sent.filter((m) => (m as { type: string }).type === 'ping').length;

  it('pings after a quiet interval and keeps a socket that answers', async () => {
    const { live, events } = await connect({ heartbeat });
    await vi.advanceTimersByTimeAsync(1000);
    expect(pings()).toBe(1);
    lastDialed().deliver({ type: 'pong' });
    await vi.advanceTimersByTimeAsync(500);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(pings()).toBe(2);
    expect(dialed()).toHaveLength(1);
    await live.close();
  });

  it('does not ping while messages arrive', async () => {
    const { live } = await connect({ heartbeat });
    for (let seq = 1; seq <= 10; seq++) {
      lastDialed().deliver(announcement(seq));
      await vi.advanceTimersByTimeAsync(600);
    }
    expect(pings()).toBe(0);
    await live.close();
  });

  it('gives up a socket that answers nothing, without waiting for a close, and resumes', async () => {
    const { live, events } = await connect({ heartbeat });
    lastDialed().deliver(announcement(1));
    const silent = lastDialed();
    await vi.advanceTimersByTimeAsync(1000); // heard since the start: look again later
    await vi.advanceTimersByTimeAsync(1000); // quiet: ping
    expect(pings()).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(events).toEqual([['disconnected', { code: 1006, reason: 'no answer to ping' }]]);
    expect(silent.readyState).toBe(3);
    await nextAttempt();
    expect(Object.fromEntries(lastDialed().query)).toEqual({ token: 't', resume: 'the-secret', after: '1' });
    // A late close of the given-up socket changes nothing.
    silent.onclose?.({ code: 1006, reason: '' });
    lastDialed().deliver({ ...welcome, lastSeq: 1, resumed: { after: 1, replayed: 0 } });
    expect(events.map(([name]) => name)).toEqual(['disconnected', 'resumed']);
    await live.close();
  });

  it('is off with heartbeat: false', async () => {
    const { live, events } = await connect({ heartbeat: false });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(pings()).toBe(0);
    expect(events).toEqual([]);
    await live.close();
  });
});
