import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The packaging test runs npm pack + install + tsc; everything else takes milliseconds.
    testTimeout: 60_000,
  },
});
