// node bench/verifier/run.mjs [--quick]
// Throughput on the same 1 KiB payloads (ratios against bare node:crypto) and the web entry's size.
// Needs the verifier built: pnpm --filter @gathercast/webhook-verifier build
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildCases } from './lib/cases.mjs';
import { measureAll, pairedRatio } from './lib/measure.mjs';
import { makePayloads, PAYLOAD_BYTES } from './lib/payloads.mjs';
import { webEntrySize } from './lib/size.mjs';

const quick = process.argv.includes('--quick');
const settings = quick
  ? { rounds: 10, sampleMs: 20, warmupMs: 50 }
  : { rounds: 60, sampleMs: 20, warmupMs: 300 };
const TARGET_RATIO = 0.9;
const TARGET_GZIP = 2048;

const require = createRequire(import.meta.url);
try {
  if (!existsSync(require.resolve('@gathercast/webhook-verifier/node'))) throw new Error('missing');
} catch {
  console.error('Build the verifier first: pnpm --filter @gathercast/webhook-verifier build');
  process.exit(2);
}

const payloads = makePayloads(64);
// The case list (names, kinds, which is compared with which); each case runs in its own worker.
const cases = buildCases(payloads);

console.log(
  `node ${process.version}, ${payloads.length} distinct ${PAYLOAD_BYTES}-byte payloads, ` +
    `${settings.rounds} interleaved rounds x ${settings.sampleMs} ms per case, each case in its own worker thread;\n` +
    'median calls per CPU-second; ' +
    'ratios are medians of per-round ratios\n',
);
const results = await measureAll(cases, payloads.length, settings);
const byName = new Map(results.map((r) => [r.name, r]));
const baseline = results.find((r) => r.baseline);
const width = Math.max(...results.map((r) => r.name.length));
const pct = (x) => `${(x * 100).toFixed(0)} %`;
const col = (text, n) => String(text).padStart(n);
console.log(
  `${'case'.padEnd(width)}  ${col('ops/s', 9)}  ${col('µs/op', 7)}  ${col('vs bare', 7)}  vs same work`,
);
for (const r of results) {
  const same = r.sameAs ? pct(pairedRatio(r, byName.get(r.sameAs))) : '';
  console.log(
    `${r.name.padEnd(width)}  ${col(Math.round(r.opsPerSec).toLocaleString('en-US'), 9)}  ` +
      `${col((1e6 / r.opsPerSec).toFixed(2), 7)}  ${col(pct(pairedRatio(r, baseline)), 7)}  ${same}`,
  );
}

const ours = results.filter((r) => r.sameAs);
const worstSame = Math.min(...ours.map((r) => pairedRatio(r, byName.get(r.sameAs))));
const worstBare = Math.min(...ours.map((r) => pairedRatio(r, baseline)));
const size = await webEntrySize();
console.log(
  `\nweb entry: ${size.minified} B minified, ${size.gzipped} B gzipped (level 9: ${size.gzippedBest} B)`,
);
console.log(
  `target: Node path >= ${pct(TARGET_RATIO)} of bare node:crypto doing the same work (HMAC check + JSON.parse): ` +
    `${worstSame >= TARGET_RATIO ? 'met' : 'NOT met'} (slowest of ours: ${pct(worstSame)}; ` +
    `${pct(worstBare)} of the bare HMAC check alone, which returns no event)`,
);
const signatureOnly = results.find((r) => r.signatureOnly);
const bareRatio = pairedRatio(signatureOnly, baseline);
console.log(
  `target: Node path >= ${pct(TARGET_RATIO)} of the bare node:crypto HMAC check (no parse on either side): ` +
    `${bareRatio >= TARGET_RATIO ? 'met' : 'NOT met'} (verifySignatureSync: ${pct(bareRatio)})`,
);
console.log(
  `target: web entry < ${TARGET_GZIP} B gzipped: ${size.gzipped < TARGET_GZIP ? 'met' : 'NOT met'}`,
);
