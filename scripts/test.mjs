#!/usr/bin/env node
// Runs every test of every package, in dependency order, stopping at the first failure.
import { spawnSync } from 'node:child_process';

const steps = [
  ['lint', ['exec', 'biome', 'lint', '.']],
  ['contract', ['--filter', '@gathercast/contract', 'run', 'typecheck']],
  ['webhook-verifier', ['--filter', '@gathercast/webhook-verifier', '--if-present', 'run', 'test']],
  ['sdk typecheck', ['--filter', '@gathercast/sdk', 'run', 'typecheck']],
  ['sdk', ['--filter', '@gathercast/sdk', 'run', 'test']],
  ['server typecheck', ['--filter', '@gathercast/server', 'run', 'typecheck']],
  ['server', ['--filter', '@gathercast/server', 'run', 'test']],
  ['examples', ['--filter', '@gathercast/examples', '--if-present', 'run', 'test']],
];

const pnpm = process.env.npm_execpath;
let failed = 0;
const summary = [];
for (const [name, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const r = pnpm
    ? spawnSync(process.execPath, [pnpm, ...args], { stdio: 'inherit' })
    : spawnSync('pnpm', args, { stdio: 'inherit', shell: true });
  const ok = r.status === 0;
  summary.push(`${ok ? 'ok  ' : 'FAIL'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!ok) failed++;
}
console.log(`\n${summary.join('\n')}`);
process.exit(failed ? 1 : 0);
