import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';
import { readDocsFiles } from './src/docs/sources';

// Help chat answers from docs/faq.md: the bundle carries its text, so `server/dist` runs without the repository.
const faq = readFileSync(new URL('../docs/faq.md', import.meta.url), 'utf8');
// The docs site renders the guides and READMEs: the bundle carries them too.
const docs = readDocsFiles(fileURLToPath(new URL('..', import.meta.url)));

// GET /version and gathercast_build_info tell what runs: the package version and the commit built.
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
function gitCommit(): string {
  if (process.env.BUILD_COMMIT) return process.env.BUILD_COMMIT;
  try {
    return execSync('git rev-parse HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return 'unknown';
  }
}
const build = { version: pkg.version, commit: gitCommit(), builtAt: new Date().toISOString() };

// The server is bundled with the contract's source so `pnpm start` needs no other build step.
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  noExternal: ['@gathercast/contract'],
  define: {
    __GATHERCAST_FAQ__: JSON.stringify(faq),
    __GATHERCAST_DOCS__: JSON.stringify(docs),
    __GATHERCAST_BUILD__: JSON.stringify(build),
  },
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
