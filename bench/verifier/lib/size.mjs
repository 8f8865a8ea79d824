// Size of the verifier's web entry as an app would ship it: bundled, minified, gzipped.
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export async function webEntrySize() {
  const entry = createRequire(import.meta.url).resolve('@gathercast/webhook-verifier/web');
  const esm = entry.replace(/\.cjs$/, '.js');
  const result = await build({
    entryPoints: [esm],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  });
  const code = result.outputFiles[0].contents;
  return {
    minified: code.length,
    gzipped: gzipSync(code).length,
    gzippedBest: gzipSync(code, { level: 9 }).length,
  };
}
