// Runs the quick start's SDK step exactly as docs/quickstart.md writes it (its build line from the
// repository root builds the SDK and the verifier the other programs use), then every example program,
// against a real API; CI fails if any of them exits non-zero.
// GATHERCAST_URL set: use that server. Otherwise start one (src/main.ts) on a free port, on a fresh
// database on DATABASE_URL when set, else on an embedded PostgreSQL in a temp directory.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const here = path.dirname(fileURLToPath(import.meta.url));
const programs = readdirSync(here).filter((f) => /\.(mjs|ts)$/.test(f) && f !== 'run-all.mjs');

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

let server;
let cleanup = async () => {};
let url = process.env.GATHERCAST_URL;
if (!url) {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    LOG_LEVEL: 'warn',
  };
  let dataDir;
  let database;
  if (process.env.DATABASE_URL) {
    database = `gc_examples_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${database}`;
    env.DATABASE_URL = u.toString();
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gc-examples-'));
    env.DATABASE_URL = '';
    env.DATA_DIR = dataDir;
  }
  server = spawn(process.execPath, ['--import', 'tsx', path.join(here, '../server/src/main.ts')], {
    env,
    stdio: 'inherit',
  });
  cleanup = async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.on('exit', r));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (database) {
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('the API did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
}

let failed = 0;
// The quick start's "With the SDK" section: save its program as examples/first-webhook.ts, then run
// its command line as written, from the repository root (it builds the SDK and the verifier first).
const guide = readFileSync(path.join(here, '../docs/quickstart.md'), 'utf8');
const sdkSection = guide.slice(guide.indexOf('## 3. With the SDK'));
const program = /```ts\n([\s\S]*?)```/.exec(sdkSection)?.[1];
const command = /```sh\n(npx [^\n]*first-webhook\.ts)\n```/.exec(sdkSection)?.[1];
console.log(`\n--- docs/quickstart.md, "With the SDK": ${command}`);
let quickstartOk = false;
if (program && command) {
  const saved = path.join(here, 'first-webhook.ts');
  writeFileSync(saved, program);
  try {
    const r = spawnSync('bash', ['-c', command], {
      cwd: path.resolve(here, '..'),
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, GATHERCAST_URL: url },
    });
    process.stdout.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
    quickstartOk =
      r.status === 0 && /verified event\.published [0-9a-f-]{36} \(event [0-9a-f-]{36}\)/.test(r.stdout);
  } finally {
    rmSync(saved, { force: true });
  }
} else console.log('the section has no program or no command line');
if (!quickstartOk) {
  failed++;
  console.log('FAIL docs/quickstart.md "With the SDK"');
}

for (const program of programs) {
  console.log(`\n--- examples/${program}`);
  // From the repository root, exactly as the programs' headers tell a reader to run them.
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join('examples', program)], {
    cwd: path.resolve(here, '..'),
    stdio: 'inherit',
    timeout: 120_000,
    env: { ...process.env, GATHERCAST_URL: url },
  });
  if (r.status !== 0) {
    failed++;
    console.log(`FAIL examples/${program} (exit ${r.status})`);
  }
}

await cleanup();
console.log(`\n${programs.length + 1 - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
