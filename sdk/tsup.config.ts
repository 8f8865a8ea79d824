import { defineConfig } from 'tsup';

/**
 * One self-contained package: the contract's runtime (only what the SDK uses: the live message
 * schemas) is bundled in, and the declarations name only the SDK's own generated types, so the
 * published package needs neither @gathercast/contract nor @ts-rest/core.
 */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  target: 'es2022',
  clean: true,
  sourcemap: true,
  noExternal: ['@gathercast/contract'],
});
