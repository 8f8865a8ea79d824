// Measures how long the start command's server takes to answer /readyz with the embedded PostgreSQL:
// first start (initdb) and a cold start on an initialised data directory. Needs `pnpm --filter
// @gathercast/server build` first (pnpm start does that build itself).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entry = path.join(root, 'server/dist/main.js');
const port = 3900 + Math.floor(Math.random() * 90);

async function timeToReady(dataDir) {
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  const exited = new Promise((r) => child.on('exit', r));
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {}
    if (performance.now() - started > 60_000) throw new Error('not ready in 60 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  await exited;
  return ms;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'gc-startup-'));
try {
  const first = await timeToReady(dataDir);
  const cold = [];
  for (let i = 0; i < 3; i++) cold.push(await timeToReady(dataDir));
  cold.sort((a, b) => a - b);
  console.log(`first start (initdb):           ${(first / 1000).toFixed(2)} s   (target < 10 s)`);
  console.log(`cold start, initialised (median): ${(cold[1] / 1000).toFixed(2)} s   (target < 3 s; runs ${cold.map((c) => (c / 1000).toFixed(2)).join(', ')})`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
