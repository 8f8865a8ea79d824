// Writes package.json's version into src/version.ts (sent in User-Agent); `pnpm release:version` runs it.
import { readFileSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
writeFileSync(
  new URL('../src/version.ts', import.meta.url),
  `/** This package's version, sent in User-Agent (kept equal to package.json by \`pnpm release:version\`; a test checks). */\nexport const VERSION = '${version}';\n`,
);
