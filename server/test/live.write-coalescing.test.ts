import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { coalesceWrites, holdUntilTurnEnds, rememberedSockets } from '../src/live/write-coalescing';

/**
 * A quiet socket's write goes out at once; a socket written in this turn or in the turn just before
 * (a burst) has its writes held until the turn ends. A fan-out to N sockets therefore reaches the
 * first viewers while the loop is still writing to the last, and a burst of messages costs a write
 * per socket and turn, not one per message.
 */
class FakeSocket {
  corked = 0;
  /** Each entry: the messages one syscall would carry. */
  readonly writes: string[][] = [];
  #pending: string[] = [];

  write(message: string): void {
    if (this.corked) this.#pending.push(message);
    else this.writes.push([message]);
  }
  cork(): void {
    this.corked++;
  }
  uncork(): void {
    this.corked--;
    if (!this.corked && this.#pending.length) {
      this.writes.push(this.#pending);
      this.#pending = [];
    }
  }
}

/**
 * Longer than the gap that ends a burst. Real time: write-coalescing.ts reads performance.now() and
 * arms its own timer, with no clock to inject; the quiet moment is the subject, not a wait for something.
 */
const quietly = () => sleep(30);

/** What the connection does for each message: coalesce, then write. */
function send(socket: FakeSocket, message: string): void {
  coalesceWrites(socket);
  socket.write(message);
}

describe('write coalescing', () => {
  it('writes to a quiet socket at once', () => {
    const sockets = [new FakeSocket(), new FakeSocket()];
    for (const s of sockets) send(s, 'chat');
    // Still inside the turn: both are on the wire already.
    for (const s of sockets) expect(s.writes).toEqual([['chat']]);
  });

  it('holds the rest of the turn and writes it as one when the turn ends', async () => {
    await quietly();
    const socket = new FakeSocket();
    for (const m of ['q1', 'q2', 'q3']) send(socket, m);
    expect(socket.writes).toEqual([['q1']]);
    await nextTurn();
    expect(socket.writes).toEqual([['q1'], ['q2', 'q3']]);
    expect(socket.corked).toBe(0);
  });

  it('holds the next turn too while the burst goes on', async () => {
    await quietly();
    const socket = new FakeSocket();
    send(socket, 'a');
    await nextTurn();
    send(socket, 'b');
    send(socket, 'c');
    expect(socket.writes).toEqual([['a']]);
    await nextTurn();
    expect(socket.writes).toEqual([['a'], ['b', 'c']]);
  });

  it('writes at once again after a quiet moment', async () => {
    await quietly();
    const socket = new FakeSocket();
    send(socket, 'a');
    await quietly();
    send(socket, 'b');
    expect(socket.writes).toEqual([['a'], ['b']]);
  });

  it('holds from the first write after an explicit hold (the 101, the welcome and the snapshot as one)', async () => {
    await quietly();
    const socket = new FakeSocket();
    holdUntilTurnEnds(socket);
    for (const m of ['101', 'welcome', 'snapshot']) send(socket, m);
    expect(socket.writes).toEqual([]);
    await nextTurn();
    expect(socket.writes).toEqual([['101', 'welcome', 'snapshot']]);
  });

  it('lets go of the sockets of a burst once it is over', async () => {
    await quietly();
    const sockets = Array.from({ length: 3 }, () => new FakeSocket());
    for (const s of sockets) send(s, 'a');
    await nextTurn();
    for (const s of sockets) send(s, 'b');
    await nextTurn();
    expect(rememberedSockets()).toBe(3);
    // Nothing written since: after the gap that ends a burst, none of them is referenced.
    await quietly();
    expect(rememberedSockets()).toBe(0);
  });
});
