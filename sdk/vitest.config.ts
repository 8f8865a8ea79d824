import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // scripts/test.mjs names the failed tests in its closing summary from this report.
    reporters: process.env.GC_TEST_REPORT ? ['default', 'json'] : ['default'],
    outputFile: process.env.GC_TEST_REPORT ? { json: process.env.GC_TEST_REPORT } : undefined,
  },
});
