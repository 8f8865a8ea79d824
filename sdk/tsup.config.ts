import { defineConfig } from 'tsup';

/**
 * One self-contained package: the contract's runtime (only what the SDK uses: the live message
 * schemas) and the webhook verifier are bundled in, and the declarations name only the SDK's own
 * generated types, so the published package depends on zod alone.
 */
export default defineConfig({
  // live.ts and webhooks.ts are entries of their own so that, in ESM, each is a separate chunk a
  // bundler drops when LiveConnection or constructEvent is unused.
  entry: ['src/index.ts', 'src/live.ts', 'src/webhooks.ts'],
  format: ['esm', 'cjs'],
  // Shared chunks in CommonJS too (ESM has them anyway): each class exists once per format, so
  // `instanceof` holds whichever entry point (`@gathercast/sdk`, `/live`, `/webhooks`) made the object.
  splitting: true,
  dts: true,
  target: 'es2022',
  clean: true,
  sourcemap: false,
  // The verifier's Web Crypto build (its `worker` export), which runs everywhere the SDK does.
  esbuildOptions(options) {
    options.conditions = ['worker'];
  },
  noExternal: ['@gathercast/contract', '@ts-rest/core', '@gathercast/webhook-verifier'],
});
