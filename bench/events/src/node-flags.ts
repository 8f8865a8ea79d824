import { readFileSync } from 'node:fs';

/**
 * The node flags the server runs with in production: those of `server/package.json`'s start script
 * (`node <flags> dist/main.js`; the root start script and the image's CMD say the same, which
 * server/test/ops.deploy.test.ts checks). The bench gives them to the server and to the baseline
 * alike, so the two differ in code only, not in runtime settings.
 */
export function productionNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../../server/package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  return pkg.scripts.start.split(' ').slice(1, -1);
}
