import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { LiveConnection, LiveConnectionClosed, type WebSocketConstructor } from '../src/index';

// A stand-in gateway speaking the contract's messages, to test the client on its own.
let server: WebSocketServer;
let url: string;
const received: unknown[] = [];

const welcome = {
  type: 'welcome',
  identity: { participantId: 'user:1', name: 'Pat', role: 'host', anonymous: false },
  event: { id: '6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c', title: 'Launch', status: 'live' },
  activePhase: null,
  cast: [{ name: 'Pat', role: 'host' }],
  media: {
    url: 'ws://media',
    token: 't',
    room: 'evt_x_stage',
    canPublish: true,
    canSubscribe: true,
    roomAdmin: true,
    playbackUrl: null,
  },
  lobby: false,
  lastSeq: 0,
  resume: { secret: 'secret', windowMs: 120_000 },
  resumed: null,
};

beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('connection', (socket, req) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    if (query.get('token') === 'flaky') {
      // Drops every socket without a close frame right after two messages; a resume replays seq 2 and 3.
      const after = query.get('after');
      const resumed = query.get('resume') === 'secret' ? { after: Number(after), replayed: 2 } : null;
      socket.send(JSON.stringify({ ...welcome, lastSeq: resumed ? Number(after) : 0, resumed }));
      if (resumed) {
        for (const seq of [2, 2, 3]) socket.send(JSON.stringify({ type: 'announcement', text: `m${seq}`, seq }));
        return;
      }
      socket.send(JSON.stringify({ type: 'announcement', text: 'm1', seq: 1 }));
      setTimeout(() => socket.terminate(), 50);
      return;
    }
    if (query.get('token') === 'gone') {
      socket.send(JSON.stringify(welcome));
      setTimeout(() => socket.terminate(), 20);
      return;
    }
    if (req.url?.includes('refuse')) {
      socket.send(JSON.stringify({ type: 'error', code: 'unauthorized', detail: 'bad token' }));
      socket.close(4401, 'unauthorized');
      return;
    }
    socket.send(JSON.stringify(welcome));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      received.push(message);
      if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      if (message.type === 'question.create') {
        socket.send('{"type":"not-in-the-contract"}');
        socket.send(
          JSON.stringify({
            type: 'question.created',
            question: {
              id: '0b6f8c7e-2f4c-4b7e-9a51-3d1f6e0c2a10',
              text: message.text,
              authorName: 'Pat',
              votes: 0,
            },
          }),
        );
      }
      if (message.type === 'banner.clear') {
        socket.send(JSON.stringify({ type: 'event.ended' }));
        socket.close(1000, 'event ended');
      }
    });
  });
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const open = (path = '/v1/live?token=t') =>
  LiveConnection.open(`${url}${path}`, {
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    timeoutMs: 2000,
  });

describe('LiveConnection', () => {
  it('resolves with the welcome message', async () => {
    const live = await open();
    expect(live.welcome).toEqual(welcome);
    await live.close();
  });

  it('delivers typed messages to listeners and next()', async () => {
    const live = await open();
    const seen: string[] = [];
    live.on('question.created', (m) => seen.push(m.question.text));
    const next = live.next('question.created');
    live.send({ type: 'question.create', text: 'When are the breakouts?' });
    expect((await next).question.text).toBe('When are the breakouts?');
    expect(seen).toEqual(['When are the breakouts?']);
    live.send({ type: 'ping' });
    await live.next('pong');
    await live.close();
  });

  it("ignores a message of a type this SDK does not know (a newer gateway's)", async () => {
    const live = await open();
    const types: string[] = [];
    live.on('message', (m) => types.push(m.type));
    live.send({ type: 'question.create', text: 'Anyone?' });
    await live.next('question.created');
    // The gateway sent a type outside the contract first: it reached no listener.
    expect(types).toEqual(['question.created']);
    await live.close();
  });

  it('refuses to send a message the contract does not allow, before it leaves', async () => {
    const live = await open();
    const before = received.length;
    expect(() => live.send({ type: 'question.create', text: '' } as never)).toThrow();
    expect(() => live.send({ type: 'nope' } as never)).toThrow();
    live.send({ type: 'ping' });
    await live.next('pong');
    expect(received.length).toBe(before + 1);
    await live.close();
  });

  it('rejects open() with the gateway error when it refuses the connection', async () => {
    const err = await open('/v1/live?token=refuse').catch((e) => e);
    expect(err).toBeInstanceOf(LiveConnectionClosed);
    expect(err.message).toContain('unauthorized');
  });

  it('reports the close code when the gateway closes, and rejects pending waits', async () => {
    const live = await open();
    const pending = live.next('poll', { timeoutMs: 5000 });
    live.send({ type: 'banner.clear' });
    const closed = await live.closedPromise();
    expect(closed.code).toBe(1000);
    await expect(pending).rejects.toBeInstanceOf(LiveConnectionClosed);
    expect(() => live.send({ type: 'ping' })).toThrow(LiveConnectionClosed);
  });

  it('reconnects a dropped socket by itself and resumes: every message once, in order, and a resumed event', async () => {
    const live = await open('/v1/live?token=flaky');
    const texts: string[] = [];
    live.on('announcement', (m) => texts.push(m.text));
    const disconnected = live.next('disconnected');
    const resumed = live.next('resumed', { timeoutMs: 5000 });
    const last = live.next('announcement', { match: (m) => m.text === 'm3', timeoutMs: 5000 });
    expect((await disconnected).code).toBe(1006);
    expect(await resumed).toMatchObject({ after: 1, replayed: 2 });
    await last;
    expect(texts).toEqual(['m1', 'm2', 'm3']);
    await live.close();
  });

  it('stops reconnecting on close(), also while waiting to retry', async () => {
    const connectionsBefore = server.clients.size;
    const live = await LiveConnection.open(`${url}/v1/live?token=gone`, {
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      reconnect: { initialDelayMs: 5000 },
    });
    await live.next('disconnected');
    const closed = await live.close();
    expect(closed.code).toBe(1000);
    await new Promise((r) => setTimeout(r, 100));
    expect(server.clients.size).toBe(connectionsBefore);
    expect(() => live.send({ type: 'ping' })).toThrow(LiveConnectionClosed);
  });

  it('asks for a WebSocket implementation where the runtime has none', async () => {
    const original = (globalThis as { WebSocket?: unknown }).WebSocket;
    (globalThis as { WebSocket?: unknown }).WebSocket = undefined;
    try {
      await expect(LiveConnection.open(url)).rejects.toThrow(/WebSocket/);
    } finally {
      (globalThis as { WebSocket?: unknown }).WebSocket = original;
    }
  });
});
