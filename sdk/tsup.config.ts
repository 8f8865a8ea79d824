import { defineConfig } from 'tsup';

// The contract is bundled in (schemas and types), so the published SDK depends only on ts-rest and zod.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: { resolve: [/^@gathercast\/contract/] },
  noExternal: ['@gathercast/contract'],
  target: 'es2022',
  clean: true,
  sourcemap: true,
});
