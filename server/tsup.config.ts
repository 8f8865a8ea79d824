import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// Help chat answers from docs/faq.md: the bundle carries its text, so `server/dist` runs without the repository.
const faq = readFileSync(new URL('../docs/faq.md', import.meta.url), 'utf8');

// The server is bundled with the contract's source so `pnpm start` needs no other build step.
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  noExternal: ['@gathercast/contract'],
  define: { __GATHERCAST_FAQ__: JSON.stringify(faq) },
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
