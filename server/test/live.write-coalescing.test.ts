import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { coalesceAfterFirstWrite, holdUntilTurnEnds } from '../src/live/write-coalescing';

/**
 * A socket's writes within one turn of the event loop: the first goes out at once, the rest of the
 * turn leave together when it ends. A fan-out to N sockets therefore reaches the first viewers while
 * the loop is still writing to the last; a burst of messages in one turn costs two writes a socket.
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

/** What the connection does for each message: coalesce, then write. */
function send(socket: FakeSocket, message: string): void {
  coalesceAfterFirstWrite(socket);
  socket.write(message);
}

describe('write coalescing', () => {
  it("writes a socket's first message of a turn at once", () => {
    const sockets = [new FakeSocket(), new FakeSocket()];
    for (const s of sockets) send(s, 'chat');
    // Still inside the turn: both are on the wire already.
    for (const s of sockets) expect(s.writes).toEqual([['chat']]);
  });

  it('holds the rest of the turn and writes it as one when the turn ends', async () => {
    await nextTurn();
    const socket = new FakeSocket();
    for (const m of ['q1', 'q2', 'q3']) send(socket, m);
    expect(socket.writes).toEqual([['q1']]);
    await nextTurn();
    expect(socket.writes).toEqual([['q1'], ['q2', 'q3']]);
    expect(socket.corked).toBe(0);
  });

  it('starts afresh in the next turn', async () => {
    await nextTurn();
    const socket = new FakeSocket();
    send(socket, 'a');
    send(socket, 'b');
    await nextTurn();
    send(socket, 'c');
    expect(socket.writes).toEqual([['a'], ['b'], ['c']]);
  });

  it('holds from the first write after an explicit hold (the 101, the welcome and the snapshot as one)', async () => {
    await nextTurn();
    const socket = new FakeSocket();
    holdUntilTurnEnds(socket);
    for (const m of ['101', 'welcome', 'snapshot']) send(socket, m);
    expect(socket.writes).toEqual([]);
    await nextTurn();
    expect(socket.writes).toEqual([['101', 'welcome', 'snapshot']]);
  });
});
