import { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { GathercastClient } from '@gathercast/sdk';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { guardProcess } from '../src/app/process-guards';
import { eventIn } from './support/events';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
let anon: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc, anon } = started);
});

/** A live public broadcast and a viewer socket on it, opened with an anonymous token (no credentials). */
async function anonymousViewer(eventId: string): Promise<LiveClient> {
  const { token } = await anon.gateway.token({ eventId });
  return LiveClient.join(t.server, token);
}

/** The server still does everything: an HTTP call, and a fresh socket that is welcomed and answers a ping. */
async function expectServing(eventId: string) {
  expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
  expect((await gc.events.retrieve(eventId)).id).toBe(eventId);
  const other = await anonymousViewer(eventId);
  other.send({ type: 'ping' });
  await other.next('pong');
  await other.close();
}

describe('live gateway: hostile frames and floods', () => {
  it.each([
    ['70,000 bytes', 70_000],
    ['1 MiB', 1024 * 1024],
  ])('closes only the socket that sends a frame of %s, with 1009', async (_label, size) => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast' }], { visibility: 'public' });
    const bystander = await anonymousViewer(event.id);
    const sender = await anonymousViewer(event.id);
    sender.send(JSON.stringify({ type: 'chat.send', text: 'x'.repeat(size) }));
    expect(await sender.closed).toBe(1009);

    await expectServing(event.id);
    bystander.send({ type: 'ping' });
    await bystander.next('pong');
    expect(bystander.closeCode).toBeUndefined();
    await bystander.close();
    expect(t.logs().some((l) => l.msg === 'live socket closed on a client error')).toBe(true);
  });

  it('answers every frame of a flood (pong or rate_limited) without closing anything', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast' }], { visibility: 'public' });
    const flooder = await anonymousViewer(event.id);
    const frames = 3000;
    for (let i = 0; i < frames; i++) flooder.send({ type: 'ping' });
    const answered = () => flooder.all('pong').length + flooder.all('error').length;
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(
        () => reject(new Error(`only ${answered()} of ${frames} answered`)),
        30_000,
      );
      const check = () => {
        if (answered() < frames) return;
        clearTimeout(deadline);
        flooder.ws.off('message', check);
        resolve();
      };
      flooder.ws.on('message', check);
      check();
    });
    expect(flooder.all('error').every((e) => e.code === 'rate_limited')).toBe(true);
    // The burst of 20, plus whatever the bucket refilled while the flood was read.
    expect(flooder.all('pong').length).toBeGreaterThanOrEqual(20);
    expect(flooder.all('pong').length).toBeLessThan(frames / 2);
    expect(flooder.closeCode).toBeUndefined();
    await expectServing(event.id);
    await flooder.close();
  });
});

describe('live gateway: the per-socket rate', () => {
  it('counts messages as they arrive: a socket within 10 a second is not refused when the server handles them late', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
    const host = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'host' }));
    host.send({ type: 'chat.send', text: 'first' });
    await host.next('chat.message', (m) => m.text === 'first');
    // The event's stream counter is held by someone else: the host's messages wait behind it.
    const blocker = new pg.Client({ connectionString: t.databaseUrl });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select seq from live_stream where event_id = $1 for update', [event.id]);
    const lines = 32;
    const held = 28;
    for (let i = 0; i < lines; i++) {
      // 8 a second, as the client sends them; the first `held` pile up in the server meanwhile. The
      // client's pace is the subject, not a wait for something.
      if (i === held) await blocker.query('commit');
      host.send({ type: 'chat.send', text: `line ${i}` });
      await delay(125);
    }
    await blocker.end();
    await host.next('chat.message', (m) => m.text === `line ${lines - 1}`);
    expect(host.all('error')).toEqual([]);
    expect(host.all('chat.message').map((m) => m.text)).toEqual([
      'first',
      ...Array.from({ length: lines }, (_, i) => `line ${i}`),
    ]);
    await host.close();
  });
});

describe('errors nobody caught', () => {
  function capture() {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        cb();
      },
    });
    return { lines, logger: pino({ level: 'info' }, sink) };
  }

  it('logs an unhandled rejection through the logger and keeps the process running', async () => {
    const { lines, logger } = capture();
    const exits: number[] = [];
    const guard = guardProcess(logger, { exit: (code) => exits.push(code) });
    try {
      guard.onRejection(new Error('nobody awaited me'));
      guard.onRejection(undefined);
    } finally {
      guard.remove();
    }
    expect(exits).toEqual([]);
    expect(lines.map((l) => [l.level, (l.err as { message: string }).message])).toEqual([
      [50, 'nobody awaited me'],
      [50, 'undefined was thrown (no error given)'],
    ]);
  });

  it('logs an uncaught exception as fatal, closes the server, then exits 1', async () => {
    const { lines, logger } = capture();
    const events: string[] = [];
    let exited!: () => void;
    const done = new Promise<void>((resolve) => {
      exited = resolve;
    });
    const guard = guardProcess(logger, {
      close: async () => {
        events.push('close');
      },
      exit: (code) => {
        events.push(`exit ${code}`);
        exited();
      },
    });
    try {
      guard.onException(new TypeError('boom'));
      await done;
    } finally {
      guard.remove();
    }
    expect(events).toEqual(['close', 'exit 1']);
    expect(lines[0]).toMatchObject({ level: 60, err: { type: 'TypeError', message: 'boom' } });
  });
});
