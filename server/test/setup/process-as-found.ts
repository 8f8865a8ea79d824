import { afterAll, beforeAll, expect, vi } from 'vitest';

/**
 * The files of a fork share one process (vitest.config.ts, isolate: false), so a file must leave it as
 * it found it: the environment variables it set restored, real timers back. This check runs around
 * every file and fails the file that did not.
 */
let envAtStart: Record<string, string | undefined>;
beforeAll(() => {
  envAtStart = { ...process.env };
});
afterAll(() => {
  expect({ ...process.env }, 'process.env after the file, against before it').toEqual(envAtStart);
  expect(vi.isFakeTimers(), 'fake timers left on').toBe(false);
});
