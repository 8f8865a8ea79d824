import { describe, expect, it, vi } from 'vitest';
import { LiveConnection, LiveConnectionClosed } from '../src/index';
import {
  announcement,
  connect,
  dialed,
  FakeSocket,
  lastDialed,
  nextAttempt,
  useFakeGateway,
  welcome,
} from './support/fake-gateway';

/*
 * LiveConnection's reconnect and resume, against the in-process stand-in for the gateway
 * (support/fake-gateway.ts) on Vitest's fake clock.
 */
useFakeGateway();

describe('LiveConnection reconnect', () => {
  it.each([
    [0, [50, 100, 200, 200, 200]],
    [0.5, [75, 150, 300, 300, 300]],
  ])(
    'backs off exponentially up to the cap, jittered down by up to half (random %s)',
    async (random, delays) => {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      const { live } = await connect({ reconnect: { initialDelayMs: 100, maxDelayMs: 400 } });
      lastDialed().drop();
      const waited: number[] = [];
      for (let i = 0; i < delays.length; i++) {
        waited.push(await nextAttempt());
        lastDialed().drop(); // refused before its welcome: try again later
      }
      expect(waited).toEqual(delays);
      await live.close();
    },
  );

  it('ignores a welcome that comes after it gave up waiting for it, and resumes on the next attempt', async () => {
    const { events, texts } = await connect({ reconnect: { welcomeTimeoutMs: 1000 } });
    lastDialed().deliver(announcement(1));
    lastDialed().drop();
    await nextAttempt();
    const late = lastDialed();
    await vi.advanceTimersByTimeAsync(1000);
    expect(late.readyState).toBe(3);
    // The gateway was slow, not gone: its welcome and replay arrive on the socket already given up.
    late.deliver({ ...welcome, resumed: { after: 1, replayed: 1 } }, announcement(2));
    expect(events.map(([name]) => name)).toEqual(['disconnected']);
    await nextAttempt();
    expect(lastDialed().query.get('after')).toBe('1');
    lastDialed().deliver({ ...welcome, resumed: { after: 1, replayed: 1 } }, announcement(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(events.map(([name]) => name)).toEqual(['disconnected', 'resumed']);
    expect(texts()).toEqual(['m1', 'm2']);
    expect(dialed()).toHaveLength(3);
  });

  it('waits 30 s for the welcome of a reconnect by default (a crowd is coming back), 10 s for the first open', async () => {
    const { events } = await connect();
    lastDialed().drop();
    await nextAttempt();
    const slow = lastDialed();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(slow.readyState).not.toBe(3);
    slow.deliver({ ...welcome, resumed: { after: 0, replayed: 0 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(events.map(([name]) => name)).toEqual(['disconnected', 'resumed']);
    expect(dialed()).toHaveLength(2);
    const opening = LiveConnection.open('ws://gateway/v1/live?token=t', { WebSocket: FakeSocket }).catch(
      (err: unknown) => err,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await opening).toBeInstanceOf(LiveConnectionClosed);
  });

  it('starts the backoff afresh after a reconnect that got its welcome', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { live } = await connect({ reconnect: { initialDelayMs: 100, maxDelayMs: 10_000 } });
    lastDialed().drop();
    expect(await nextAttempt()).toBe(50);
    lastDialed().drop();
    expect(await nextAttempt()).toBe(100);
    lastDialed().deliver({ ...welcome, resumed: { after: 0, replayed: 0 } });
    lastDialed().drop();
    expect(await nextAttempt()).toBe(50);
    await live.close();
  });

  it('uses a default backoff of 250 ms doubling to 10 s', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const { live } = await connect();
    lastDialed().drop();
    const waited: number[] = [];
    for (let i = 0; i < 8; i++) {
      waited.push(await nextAttempt());
      lastDialed().drop();
    }
    expect(waited.map((ms) => Math.round(ms / 10) * 10)).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
    await live.close();
  });

  it('resumes from the last seq handed on with a fresh URL, and hands on the gap once and in order', async () => {
    let urls = 0;
    const { live, texts, events } = await connect({}, () => `ws://gateway/v1/live?token=t${++urls}`);
    lastDialed().deliver(announcement(1), announcement(2));
    lastDialed().drop();
    await nextAttempt();
    const again = lastDialed();
    expect(Object.fromEntries(again.query)).toEqual({ token: 't2', resume: 'the-secret', after: '2' });
    // The replay (3 and 5: 4 was for someone else), a repeat the client must drop, then live messages.
    again.deliver({ ...welcome, lastSeq: 2, resumed: { after: 2, replayed: 2 } });
    again.deliver(announcement(3), announcement(5), announcement(5), announcement(2), announcement(6));
    expect(texts()).toEqual(['m1', 'm2', 'm3', 'm5', 'm6']);
    expect(events.map(([name]) => name)).toEqual(['disconnected', 'resumed']);
    expect(events[1]![1]).toEqual({ after: 2, replayed: 2, downtimeMs: expect.any(Number) });
    expect(live.welcome.resumed).toEqual({ after: 2, replayed: 2 });
    await live.close();
  });

  it('reports how long the socket was down in resumed', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { live, events } = await connect();
    lastDialed().drop();
    await nextAttempt(); // 125 ms
    lastDialed().drop();
    await nextAttempt(); // 250 ms
    lastDialed().deliver({ ...welcome, resumed: { after: 0, replayed: 0 } });
    expect(events.at(-1)).toEqual(['resumed', { after: 0, replayed: 0, downtimeMs: 375 }]);
    await live.close();
  });

  it('reports a reset when the gateway cannot resume: the resume_failed error is not handed on, the snapshot is', async () => {
    const { live, texts, events } = await connect();
    lastDialed().deliver(announcement(1), announcement(2));
    lastDialed().drop();
    await nextAttempt();
    lastDialed().deliver(
      { ...welcome, lastSeq: 9, resumed: null },
      { type: 'error', code: 'resume_failed', detail: 'no longer kept' },
      { type: 'banner', text: 'Back soon' },
      announcement(9),
      announcement(10),
    );
    expect(events.at(-1)).toEqual([
      'reset',
      { reason: 'resume_failed', after: 2, lastSeq: 9, downtimeMs: expect.any(Number) },
    ]);
    expect(texts()).toEqual(['m1', 'm2', 'banner', 'm10']);
    // A later error is the application's business again.
    lastDialed().deliver({ type: 'error', code: 'resume_failed', detail: 'x' });
    expect(texts().at(-1)).toBe('error');
    await live.close();
  });

  it('does not ask to resume once the window has passed, and reports the reset as window_elapsed', async () => {
    const shortWindow = { ...welcome, resume: { secret: 'the-secret', windowMs: 1000 } };
    const { live, events } = await connect(
      { reconnect: { initialDelayMs: 400, maxDelayMs: 400 } },
      undefined,
      shortWindow,
    );
    vi.spyOn(Math, 'random').mockReturnValue(0); // every attempt 200 ms after the last
    lastDialed().deliver(announcement(1));
    lastDialed().drop();
    const asked: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      await nextAttempt();
      asked.push(lastDialed().query.get('resume'));
      if (i < 4) lastDialed().drop();
    }
    // At 200, 400, 600 and 800 ms inside the 1 s window; at 1000 ms no longer.
    expect(asked).toEqual(['the-secret', 'the-secret', 'the-secret', 'the-secret', null]);
    expect(lastDialed().query.get('after')).toBeNull();
    lastDialed().deliver({ ...welcome, lastSeq: 7 }, announcement(8));
    expect(events.at(-1)).toEqual([
      'reset',
      { reason: 'window_elapsed', after: 1, lastSeq: 7, downtimeMs: expect.any(Number) },
    ]);
    await live.close();
  });

  it('hands on a phase.changed built from the new welcome when the phase changed while away', async () => {
    const { live, seen } = await connect();
    lastDialed().drop();
    await nextAttempt();
    const next = {
      ...welcome.activePhase,
      id: '9c1b2d3e-4f5a-4b7c-8d1f-6a1f3c2e8b4d',
      position: 1,
      modality: 'meeting',
    };
    const grant = { ...welcome.media, token: 'jwt', room: 'evt_x_meeting', canPublish: true };
    lastDialed().deliver({ ...welcome, activePhase: next, media: grant, resumed: { after: 0, replayed: 0 } });
    expect(seen).toEqual([
      { type: 'phase.changed', eventStatus: 'live', activePhaseId: next.id, media: grant },
    ]);
    // Same phase after the next blip: nothing to hand on.
    lastDialed().drop();
    await nextAttempt();
    lastDialed().deliver({ ...welcome, activePhase: next, media: grant, resumed: { after: 0, replayed: 0 } });
    expect(seen).toHaveLength(1);
    await live.close();
  });

  it('sends what was sent while reconnecting after the new welcome, in order', async () => {
    const { live } = await connect();
    lastDialed().drop();
    live.send({ type: 'chat.send', text: 'one' });
    live.send({ type: 'chat.send', text: 'two' });
    await nextAttempt();
    expect(lastDialed().sent).toEqual([]);
    lastDialed().deliver({ ...welcome, resumed: { after: 0, replayed: 0 } });
    expect(lastDialed().sent).toEqual([
      { type: 'chat.send', text: 'one' },
      { type: 'chat.send', text: 'two' },
    ]);
    await live.close();
  });
});

describe('LiveConnection stops reconnecting', () => {
  it('on close() while waiting to retry', async () => {
    const { live } = await connect();
    lastDialed().drop();
    const closed = await live.close();
    expect(closed.code).toBe(1000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(dialed()).toHaveLength(1);
    expect(() => live.send({ type: 'ping' })).toThrow(LiveConnectionClosed);
  });

  it('on close() while a reconnect waits for its welcome, closing that socket when it comes', async () => {
    const { live, events } = await connect();
    lastDialed().drop();
    await nextAttempt();
    const pending = lastDialed();
    await live.close();
    pending.deliver({ ...welcome, resumed: { after: 0, replayed: 0 } });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pending.readyState).toBe(3);
    expect(dialed()).toHaveLength(2);
    expect(events.map(([name]) => name)).toEqual(['disconnected']);
  });

  it.each([1000, 4000, 4003, 4009])('after close code %s, which reconnecting cannot help', async (code) => {
    const { live, events } = await connect();
    lastDialed().drop(code);
    expect((await live.closedPromise()).code).toBe(code);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(dialed()).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it('when the gateway answers the reconnect with an error (the event ended meanwhile)', async () => {
    const { live } = await connect();
    lastDialed().drop();
    await nextAttempt();
    lastDialed().deliver({ type: 'error', code: 'invalid_state', detail: 'The event has ended' });
    lastDialed().drop(4009);
    const closed = await live.closedPromise();
    expect(closed.code).toBe(1008);
    expect(closed.reason).toContain('invalid_state');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(dialed()).toHaveLength(2);
  });

  it('when the gateway token of a fixed URL has expired', async () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const payload = btoa(JSON.stringify({ exp })).replace(/=+$/, '');
    const { live } = await connect({ heartbeat: false }, `ws://gateway/v1/live?token=h.${payload}.s`);
    vi.advanceTimersByTime(61_000);
    lastDialed().drop();
    await vi.advanceTimersToNextTimerAsync();
    const closed = await live.closedPromise();
    expect(closed).toMatchObject({ code: 1006, reason: expect.stringContaining('expired') });
    expect(dialed()).toHaveLength(1);
  });

  it('with reconnect: false, a dropped socket closes the connection', async () => {
    const { live, events } = await connect({ reconnect: false });
    lastDialed().drop();
    expect((await live.closedPromise()).code).toBe(1006);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(dialed()).toHaveLength(1);
    expect(events).toEqual([]);
  });
});
