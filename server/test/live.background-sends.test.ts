import { describe, expect, it } from 'vitest';
import { inTurns } from '../src/lib/in-turns';

/*
 * Background sends to a whole audience (the periodic counts, keep-alive pings) go a slice at a time,
 * letting the event loop turn in between: a host's message that arrives meanwhile is handled before
 * the rest of the slices, instead of waiting behind all 10,000 sends.
 */
describe('background sends to a whole audience', () => {
  /** What ran, in order: each send's index, and `arrived` where work queued during the first send ran. */
  async function sendTo(audience: number, perTurn: number): Promise<(number | 'arrived')[]> {
    const ran: (number | 'arrived')[] = [];
    await inTurns(
      Array.from({ length: audience }, (_, i) => i),
      (i) => {
        if (i === 0) setImmediate(() => ran.push('arrived'));
        ran.push(i);
      },
      perTurn,
    );
    return ran;
  }

  it('let work that arrives during a slice run before the next slice', async () => {
    const ran = await sendTo(1200, 500);
    expect(ran.indexOf('arrived')).toBe(500);
    expect(ran.filter((r) => r !== 'arrived')).toEqual(Array.from({ length: 1200 }, (_, i) => i));
  });

  it('send a small audience in one go', async () => {
    const ran = await sendTo(300, 500);
    expect(ran.slice(0, 300)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });
});
