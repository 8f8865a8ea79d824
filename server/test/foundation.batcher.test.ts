import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { Batcher } from '../src/lib/batcher';

/**
 * Requests coalesced into batches: at once when a slot is free (no added latency), together when
 * they arrive while a batch runs; with a linger (a caller whose process is busy) a batch that is not
 * full waits that long to fill, and a full one goes at once.
 */
function recording(linger: () => number = () => 0, maxBatch = 3) {
  const batches: number[][] = [];
  const batcher = new Batcher<number, number>(
    async (inputs) => {
      batches.push(inputs);
      await sleep(5); // the statement's round trip: the batch holds its slot meanwhile
      return inputs.map((i) => i * 10);
    },
    maxBatch,
    1,
    linger,
  );
  return { batcher, batches };
}

describe('Batcher', () => {
  it('runs a lone request at once and answers each request with its own output', async () => {
    const { batcher, batches } = recording();
    const out = batcher.submit(1);
    expect(batches).toEqual([[1]]);
    expect(await out).toBe(10);
  });

  it('groups the requests that arrive while a batch runs', async () => {
    const { batcher, batches } = recording();
    const outs = [1, 2, 3].map((i) => batcher.submit(i));
    expect(await Promise.all(outs)).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('lets a batch fill for the linger before running it', async () => {
    // The linger is a setTimeout: fake timers move it to the millisecond.
    vi.useFakeTimers();
    try {
      const { batcher, batches } = recording(() => 20);
      const first = batcher.submit(1);
      await vi.advanceTimersByTimeAsync(19);
      const second = batcher.submit(2);
      expect(batches).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(batches).toEqual([[1, 2]]);
      await vi.advanceTimersByTimeAsync(5);
      expect(await Promise.all([first, second])).toEqual([10, 20]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs a full batch at once, lingering or not', async () => {
    const { batcher, batches } = recording(() => 1000);
    const outs = [1, 2, 3].map((i) => batcher.submit(i));
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await Promise.all(outs)).toEqual([10, 20, 30]);
  });
});
