import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // contract/src/webhook-events.ts lives outside this package; give its zod import ours.
    alias: { zod: fileURLToPath(new URL('./node_modules/zod', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // The packaging test runs npm pack + install (in its beforeAll) + tsc; everything else takes milliseconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
