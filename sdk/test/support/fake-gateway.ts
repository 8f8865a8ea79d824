import { afterEach, beforeEach, expect, vi } from 'vitest';
import {
  LiveConnection,
  type LiveConnectOptions,
  type LiveServerMessage,
  type LiveUrl,
  type WebSocketLike,
} from '../../src/index';

/*
 * An in-process stand-in for the live gateway: every socket the client dials is a FakeSocket the test
 * answers for, and time is Vitest's fake clock (useFakeGateway), so backoff delays, heartbeats and the
 * resume window are exact rather than waited for.
 */

/** One socket the client dialed; the test plays the gateway's side of it. */
export class FakeSocket implements WebSocketLike {
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

export const dialed = () => FakeSocket.dialed;
export const lastDialed = () => FakeSocket.dialed.at(-1)!;

export const welcome = {
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
export const announcement = (seq: number) => ({ type: 'announcement', text: `m${seq}`, seq });

/** Opens a connection on the fake gateway; `seen` is every message the application is handed. */
export async function connect(
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
export async function nextAttempt(): Promise<number> {
  const count = dialed().length;
  const from = Date.now();
  await vi.advanceTimersToNextTimerAsync();
  expect(dialed().length).toBe(count + 1);
  return Date.now() - from;
}

/** Each test of the calling file starts with no socket dialed, on the fake clock. */
export function useFakeGateway(): void {
  beforeEach(() => {
    FakeSocket.dialed = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
}

