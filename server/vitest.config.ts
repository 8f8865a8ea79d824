import { defineConfig } from 'vitest/config';

/** Three forks on two cores (a file waiting on a server or a socket leaves its core to another); GC_TEST_FORKS sets another count. */
const forks = Number(process.env.GC_TEST_FORKS ?? 3);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/process-as-found.ts'],
    pool: 'forks',
    // Test files share their fork's module cache (isolate: false): each fork imports the server once
    // instead of once per file, which took about a third of the suite's CPU. What that asks of a test
    // file: leave the process as it found it (restore process.env, real timers) and read the process's
    // one metrics registry as a difference, not an absolute count. minForks = maxForks: with fewer,
    // the pool ends a fork it sees idle while that fork's file is still closing its servers
    // (tinypool's "Terminating worker thread"), and the file's results are lost.
    poolOptions: { forks: { maxForks: forks, minForks: forks, isolate: false } },
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
