import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { OrderedSlices } from '../src/lib/ordered-slices';

const range = (from: number, n: number) => new Set(Array.from({ length: n }, (_, i) => from + i));
const failed: unknown[] = [];
/** Walks of at most 3 at once; otherwise slices of 3 ms where each visit takes 1 ms. */
let clock = 0;
const slices = () =>
  new OrderedSlices<number>((err) => failed.push(err), {
    atOnce: 3,
    sliceMs: 3,
    checkEvery: 1,
    now: () => clock,
  });
const timed =
  <T>(visit: (item: T) => void) =>
  (item: T) => {
    clock += 1;
    visit(item);
  };

describe('walks in order, a large one in slices', () => {
  it('walks a set of at most perTurn items at once', () => {
    const seen: number[] = [];
    slices().walk(range(0, 3), (i) => seen.push(i));
    expect(seen).toEqual([0, 1, 2]);
  });

  it('walks a larger set one timed slice per event-loop turn', async () => {
    const seen: number[] = [];
    slices().walk(
      range(0, 7),
      timed((i) => seen.push(i)),
    );
    expect(seen).toEqual([0, 1, 2]);
    await nextTurn();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    await nextTurn();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('keeps a small walk asked for meanwhile behind the large one', async () => {
    const s = slices();
    const seen: string[] = [];
    s.walk(
      range(0, 5),
      timed((i) => seen.push(`a${i}`)),
    );
    s.walk(
      range(0, 2),
      timed((i) => seen.push(`b${i}`)),
    );
    expect(seen).toEqual(['a0', 'a1', 'a2']);
    await nextTurn();
    await nextTurn();
    expect(seen).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'b1']);
  });

  it('visits an item added while the walk is in slices, and skips one removed', async () => {
    const items = range(0, 5);
    const seen: number[] = [];
    slices().walk(
      items,
      timed((i) => seen.push(i)),
    );
    items.add(9);
    items.delete(4);
    await nextTurn();
    await nextTurn();
    expect(seen).toEqual([0, 1, 2, 3, 9]);
  });

  it('reports an item whose visit threw and goes on with the others', () => {
    const seen: number[] = [];
    failed.length = 0;
    slices().walk(range(0, 3), (i) => {
      if (i === 1) throw new Error('socket gone');
      seen.push(i);
    });
    expect(seen).toEqual([0, 2]);
    expect(failed).toHaveLength(1);
  });
});
