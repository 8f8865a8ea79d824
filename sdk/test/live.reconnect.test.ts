import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LiveConnection,
  LiveConnectionClosed,
  type LiveConnectOptions,
  type LiveServerMessage,
  type LiveUrl,
  type WebSocketLike,
} from '../src/index';

/*
 * LiveConnection's reconnect and resume, against an in-process stand-in for the gateway: every socket
 * the client dials is a FakeSocket the test answers for, and time is Vitest's fake clock, so backoff
 * delays and the resume window are exact rather than waited for.
 */

/** One socket the client dialed; the test plays the gateway's side of it. */
class FakeSocket implements WebSocketLike {
  static dialed: FakeSocket[] = [];
  readyState = 1;
  readonly sent: unknown[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.dialed.push(this);
  }

  get query(): URLSearchParams {
    return new URL(this.url).searchParams;
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(code = 1000, reason = ''): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    queueMicrotask(() => this.onclose?.({ code, reason }));
  }

  /** The gateway sends these, in order. */
  deliver(...messages: object[]): void {
    for (const m of messages) this.onmessage?.({ data: JSON.stringify(m) });
  }

  /** The network (or the gateway) ends the socket: 1006 is a loss without a close frame. */
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

const dialed = () => FakeSocket.dialed;
const lastDialed = () => FakeSocket.dialed.at(-1)!;

const welcome = {
  type: 'welcome',
  identity: { participantId: 'user:1', name: 'Pat', role: 'participant', anonymous: false },
  event: { id: '6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c', title: 'Launch', status: 'live' },
  activePhase: {
    id: '0b6f8c7e-2f4c-4b7e-9a51-3d1f6e0c2a10',
    position: 0,
    modality: 'broadcast',
    status: 'active',
  },
  cast: [{ name: 'Pat', role: 'host' }],
  media: {
    url: 'ws://media',
    token: null,
    room: null,
    canPublish: false,
    canSubscribe: true,
    roomAdmin: false,
    playbackUrl: 'https://hls/x.m3u8',
  },
  lobby: false,
  lastSeq: 0,
  resume: { secret: 'the-secret', windowMs: 120_000 },
  resumed: null,
};
const announcement = (seq: number) => ({ type: 'announcement', text: `m${seq}`, seq });

/** Opens a connection on the fake gateway; `seen` is every message the application is handed. */
async function connect(
  options: LiveConnectOptions = {},
  url: LiveUrl = 'ws://gateway/v1/live?token=t',
  first: object = welcome,
) {
  const opening = LiveConnection.open(url, { WebSocket: FakeSocket, ...options });
  await vi.advanceTimersByTimeAsync(0);
  lastDialed().deliver(first);
  const live = await opening;
  const seen: LiveServerMessage[] = [];
  live.on('message', (m) => seen.push(m));
  const events: [string, unknown][] = [];
  for (const name of ['disconnected', 'resumed', 'reset'] as const)
    live.on(name, (p) => events.push([name, p]));
  await vi.advanceTimersByTimeAsync(0);
  const texts = () => seen.map((m) => (m.type === 'announcement' ? m.text : m.type));
  return { live, seen, events, texts };
}

/** Runs the clock to the next reconnect attempt and answers for the socket it dials; ms waited. */
async function nextAttempt(): Promise<number> {
  const count = dialed().length;
  const from = Date.now();
  await vi.advanceTimersToNextTimerAsync();
  expect(dialed().length).toBe(count + 1);
  return Date.now() - from;
}

beforeEach(() => {
  FakeSocket.dialed = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

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
