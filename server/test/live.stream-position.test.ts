import { describe, expect, it } from 'vitest';
import { StreamPosition } from '../src/live/stream-position';

/**
 * A joining socket's stream position is the seq after which every message reaches it live: the first
 * joiner of a room reads the stream's last seq, joiners meanwhile share that read, and from then on the
 * position is kept up from this process's deliveries: max(the first read, the last seq delivered
 * before the socket was registered).
 */
function harness() {
  const reads: { resolve: (seq: number) => void; reject: (e: Error) => void }[] = [];
  const position = new StreamPosition(
    () => new Promise((resolve, reject) => reads.push({ resolve, reject })),
  );
  return { position, reads };
}

describe('a room’s stream position', () => {
  it('reads the stream once for the first joiner and every joiner while that read runs', async () => {
    const { position, reads } = harness();
    const first = position.lastSeq();
    const second = position.lastSeq();
    expect(reads).toHaveLength(1);
    reads[0]!.resolve(7);
    expect([await first, await second]).toEqual([7, 7]);
  });

  it('reads nothing for a later joiner: its position comes from the deliveries', async () => {
    const { position, reads } = harness();
    const first = position.lastSeq();
    reads[0]!.resolve(7);
    await first;
    position.delivered(8);
    position.delivered(9);
    expect(await position.lastSeq()).toBe(9);
    expect(reads).toHaveLength(1);
  });

  it('keeps the first read when it is above every seq delivered since', async () => {
    const { position, reads } = harness();
    const pending = position.lastSeq();
    position.delivered(3);
    const joiner = position.lastSeq();
    reads[0]!.resolve(5);
    expect([await pending, await joiner]).toEqual([5, 5]);
  });

  it('gives a joiner a delivery made while the first read runs', async () => {
    const { position, reads } = harness();
    const first = position.lastSeq();
    position.delivered(12);
    const second = position.lastSeq();
    reads[0]!.resolve(10);
    expect(await first).toBe(10);
    expect(await second).toBe(12);
  });

  it('fixes a joiner’s position when it asks: a later delivery reaches it live instead', async () => {
    const { position, reads } = harness();
    const joiner = position.lastSeq();
    reads[0]!.resolve(4);
    await joiner;
    const asked = position.lastSeq();
    position.delivered(5);
    expect(await asked).toBe(4);
  });

  it('never moves back for a delivery of an older seq', async () => {
    const { position, reads } = harness();
    void position.lastSeq();
    reads[0]!.resolve(1);
    position.delivered(9);
    position.delivered(6);
    expect(await position.lastSeq()).toBe(9);
  });

  it('ignores deliveries before its first joiner: they are in the read', async () => {
    const { position, reads } = harness();
    position.delivered(50);
    const joiner = position.lastSeq();
    reads[0]!.resolve(20);
    expect(await joiner).toBe(20);
  });

  it('reads again for the next joiner after a failed read', async () => {
    const { position, reads } = harness();
    const failed = position.lastSeq();
    reads[0]!.reject(new Error('connection lost'));
    await expect(failed).rejects.toThrow('connection lost');
    const next = position.lastSeq();
    expect(reads).toHaveLength(2);
    reads[1]!.resolve(3);
    expect(await next).toBe(3);
  });
});
