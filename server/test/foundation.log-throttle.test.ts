import { describe, expect, it } from 'vitest';
import { LogThrottle } from '../src/lib/log-throttle';

describe('a log line per kind at most every interval', () => {
  it('logs the first occurrence at once, counts the rest of the interval, and reports them on the next line', () => {
    let clock = 0;
    const throttle = new LogThrottle(1000, () => clock);
    expect(throttle.take('cap')).toEqual({ log: true, skipped: 0 });
    clock = 500;
    expect(throttle.take('cap')).toEqual({ log: false });
    expect(throttle.take('cap')).toEqual({ log: false });
    clock = 1000;
    expect(throttle.take('cap')).toEqual({ log: true, skipped: 2 });
  });

  it('keeps each kind on its own interval', () => {
    const throttle = new LogThrottle(1000, () => 0);
    expect(throttle.take('a').log).toBe(true);
    expect(throttle.take('b').log).toBe(true);
    expect(throttle.take('a').log).toBe(false);
  });
});
