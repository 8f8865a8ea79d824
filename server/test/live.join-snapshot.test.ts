import type { LiveServerMessage } from '@gathercast/contract';
import { describe, expect, it } from 'vitest';
import { JoinSnapshot } from '../src/live/join-snapshot';

/**
 * The state a joining socket is sent after its welcome is read once and shared by every joiner of the
 * room whose socket starts at the same seq; a newer seq reads afresh and is shared from then on, an
 * older one reads afresh for itself alone.
 */
function harness() {
  const reads: { resolve: (messages: LiveServerMessage[]) => void; reject: (e: Error) => void }[] = [];
  const snapshot = new JoinSnapshot(() => new Promise((resolve, reject) => reads.push({ resolve, reject })));
  const banner = (text: string) => [{ type: 'banner', text }] as unknown as LiveServerMessage[];
  return { snapshot, reads, banner };
}

describe('a room’s join snapshot', () => {
  it('reads once for every joiner at the same seq', async () => {
    const { snapshot, reads, banner } = harness();
    const first = snapshot.get(3);
    const second = snapshot.get(3);
    expect(reads).toHaveLength(1);
    reads[0]!.resolve(banner('hello'));
    expect(await second).toBe(await first);
  });

  it('shares a finished read with a later joiner at the same seq', async () => {
    const { snapshot, reads, banner } = harness();
    const first = snapshot.get(3);
    reads[0]!.resolve(banner('hello'));
    await first;
    expect(await snapshot.get(3)).toBe(await first);
    expect(reads).toHaveLength(1);
  });

  it('reads afresh at a newer seq and shares that read from then on', async () => {
    const { snapshot, reads, banner } = harness();
    void snapshot.get(3);
    const newer = snapshot.get(4);
    expect(reads).toHaveLength(2);
    reads[1]!.resolve(banner('changed'));
    expect(await snapshot.get(4)).toBe(await newer);
    expect(reads).toHaveLength(2);
  });

  it('reads afresh at an older seq without replacing the newer snapshot', async () => {
    const { snapshot, reads, banner } = harness();
    const newer = snapshot.get(5);
    void snapshot.get(4);
    expect(reads).toHaveLength(2);
    reads[0]!.resolve(banner('newer'));
    expect(await snapshot.get(5)).toBe(await newer);
    expect(reads).toHaveLength(2);
  });

  it('does not keep a failed read: the next joiner at that seq reads again', async () => {
    const { snapshot, reads, banner } = harness();
    const failed = snapshot.get(3);
    reads[0]!.reject(new Error('connection lost'));
    await expect(failed).rejects.toThrow('connection lost');
    const next = snapshot.get(3);
    expect(reads).toHaveLength(2);
    reads[1]!.resolve(banner('hello'));
    expect(await next).toEqual(banner('hello'));
  });
});
