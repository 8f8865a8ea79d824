// Runs every example program; CI fails if any of them exits non-zero.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const programs = readdirSync(new URL('.', import.meta.url)).filter((f) => (f.endsWith('.mjs') || f.endsWith('.ts')) && f !== 'run-all.mjs');
let failed = 0;
for (const program of programs) {
  console.log(`\n--- examples/${program}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', program], { cwd: new URL('.', import.meta.url), stdio: 'inherit', timeout: 120_000 });
  if (r.status !== 0) {
    failed++;
    console.log(`FAIL examples/${program} (exit ${r.status})`);
  }
}
console.log(`\n${programs.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
