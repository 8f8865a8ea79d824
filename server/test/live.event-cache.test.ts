import { describe, expect, it } from 'vitest';
import { eventCacheMs, LiveEventCache } from '../src/live/event-cache';
import type { LiveEvent } from '../src/live/event-state';

/**
 * An event's live state is read at most once per second for all of a process's joiners and messages;
 * an event with a large audience is read again in the background, so none of them waits for a read;
 * a status or phase change (`forget`) is never overwritten by a read that started before it.
 */
function harness() {
  let now = 0;
  const reads: { eventId: string; resolve: (e: LiveEvent | null) => void }[] = [];
  const cache = new LiveEventCache(
    (eventId) => new Promise((resolve) => reads.push({ eventId, resolve })),
    () => now,
  );
  const state = (title: string) => ({ title }) as unknown as LiveEvent;
  return {
    cache,
    reads,
    state,
    at: (ms: number) => {
      now = ms;
    },
  };
}

describe('the live event cache', () => {
  it('reads an event once for every get within a second', async () => {
    const { cache, reads, state, at } = harness();
    const first = cache.get('e');
    at(eventCacheMs - 1);
    const second = cache.get('e');
    expect(reads).toHaveLength(1);
    reads[0]!.resolve(state('v1'));
    expect(await first).toBe(await second);
    at(eventCacheMs);
    void cache.get('e');
    expect(reads).toHaveLength(2);
  });

  it('keeps a large event fresh in the background: a get after the first read expired does not wait', async () => {
    const { cache, reads, state, at } = harness();
    void cache.get('e');
    reads[0]!.resolve(state('v1'));
    at(eventCacheMs / 2);
    cache.keepFresh(['e']);
    reads[1]!.resolve(state('v2'));
    await Promise.resolve();
    at(eventCacheMs + 100);
    expect((await cache.get('e'))?.title).toBe('v2');
    expect(reads).toHaveLength(2);
  });

  it('drops a background read that started before a status or phase change', async () => {
    const { cache, reads, state, at } = harness();
    void cache.get('e');
    reads[0]!.resolve(state('before'));
    at(500);
    cache.keepFresh(['e']);
    cache.forget('e');
    reads[1]!.resolve(state('stale'));
    await Promise.resolve();
    const after = cache.get('e');
    expect(reads).toHaveLength(3);
    reads[2]!.resolve(state('changed'));
    expect((await after)?.title).toBe('changed');
  });

  it('keeps a read that started after the background one', async () => {
    const { cache, reads, state, at } = harness();
    at(0);
    cache.keepFresh(['e']);
    at(10);
    const fresh = cache.get('e');
    reads[1]!.resolve(state('newer'));
    reads[0]!.resolve(state('older'));
    await Promise.resolve();
    expect((await cache.get('e'))?.title).toBe('newer');
    expect(await fresh).toMatchObject({ title: 'newer' });
  });
});
