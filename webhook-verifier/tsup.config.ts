import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { web: 'src/web.ts', node: 'src/node.ts', express: 'src/express.ts' },
  format: ['esm', 'cjs'],
  // The contract file lives outside this package: its zod import resolves via tsconfig "paths".
  // Inline the contract's event types so the published package depends on nothing.
  dts: { resolve: [/contract\/src/, /@gathercast\/contract/] },
  target: 'es2022',
  platform: 'neutral',
  external: ['node:crypto'],
  clean: true,
  sourcemap: false,
  minify: false,
  treeshake: true,
});
