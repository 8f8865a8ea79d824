import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/global.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 3, minForks: 1 } },
    // Every test and hook gets the budget of one that starts a server of its own (support/budgets.ts,
    // repeatedRaceBudgetMs): on a loaded 2-core machine a start alone has taken over 30 s. A green run
    // pays nothing for it; only a hung test takes longer to say so.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { NODE_ENV: 'test' },
    // scripts/test.mjs names the failed tests in its closing summary from this report.
    reporters: process.env.GC_TEST_REPORT ? ['default', 'json'] : ['default'],
    outputFile: process.env.GC_TEST_REPORT ? { json: process.env.GC_TEST_REPORT } : undefined,
  },
});
