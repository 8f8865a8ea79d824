import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from './support/commands';
import { createWorkspace, type WorkspaceFixture, withDb } from './support/fixtures';
import { freePort } from './support/ports';
import { type ServerProcess, spawnServer, waitForReady } from './support/process';
import { eventually } from './support/wait';

/**
 * The built server (`node dist/main.js`) on the embedded PostgreSQL, SIGKILLed while writing: each
 * kill leaves its PostgreSQL running as an orphan, which the next start must stop before it comes up.
 */
const require = createRequire(import.meta.url);
const serverDir = path.resolve(__dirname, '..');
// Inside server/dist so the bundle resolves its dependencies from server/node_modules.
const bundleDir = path.join(serverDir, 'dist', `crash-test-${randomBytes(4).toString('hex')}`);
const entry = path.join(bundleDir, 'main.js');
const dataDir = mkdtempSync(path.join(tmpdir(), 'gc-crash-'));
const databaseDir = path.join(dataDir, 'postgres');
const kills = 3;
const writers = 4;

let port = 0;
let url = '';
const started: ServerProcess[] = [];

const lockPid = () => Number(readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
const databaseUrl = () =>
  `postgres://postgres:postgres@127.0.0.1:${readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[3]}/gathercast`;
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
};

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const proc = spawnServer(
    { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info', ...env },
    entry,
  );
  started.push(proc);
  return proc;
}

async function startReady(): Promise<ServerProcess> {
  const proc = await start();
  await Promise.race([
    waitForReady(url, 90_000),
    proc.exited.then((code) => {
      throw new Error(`exited ${code} before it was ready`);
    }),
  ]).catch((err) => {
    throw new Error(`${err.message}\n${proc.output()}`);
  });
  return proc;
}

beforeAll(async () => {
  const built = await runCommand(
    process.execPath,
    [require.resolve('tsup/dist/cli-default.js'), '--out-dir', bundleDir],
    {
      cwd: serverDir,
    },
  );
  if (built.status !== 0) throw new Error(`tsup failed:\n${built.stdout}\n${built.stderr}`);
}, 120_000);

afterAll(async () => {
  for (const p of started)
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  // Never leave a PostgreSQL behind: stop whatever still holds the data directory.
  if (existsSync(path.join(databaseDir, 'postmaster.pid'))) {
    const pid = lockPid();
    if (alive(pid)) {
      process.kill(pid, 'SIGINT');
      await eventually(
        async () => alive(pid),
        (running) => !running,
        30_000,
      );
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(bundleDir, { recursive: true, force: true });
}, 60_000);

describe('crash-proof restarts on the embedded PostgreSQL', () => {
  it(`comes back after ${kills} SIGKILLs mid-write with every acknowledged write, and refuses a second server on the same DATA_DIR`, async () => {
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    let server = await startReady();
    const ws: WorkspaceFixture = await createWorkspace(databaseUrl());

    // Writers run through the kills: a write counts once the API answered 201.
    const acknowledged: string[] = [];
    let onAck = () => {};
    let back: Promise<void> = Promise.resolve();
    let writing = true;
    let n = 0;
    const write = async () => {
      while (writing) {
        try {
          const res = await fetch(`${url}/v1/events`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': ws.apiKey },
            body: JSON.stringify({ type: 'webinar', title: `Write ${++n}` }),
          });
          if (res.status === 201) {
            acknowledged.push(((await res.json()) as { id: string }).id);
            onAck();
          }
        } catch {
          await back; // the server is down: wait until it is back
        }
      }
    };
    const writing$ = Promise.all(Array.from({ length: writers }, write));
    const acksReach = (count: number) =>
      new Promise<void>((resolve) => {
        onAck = () => acknowledged.length >= count && resolve();
        onAck();
      });

    const orphans: number[] = [];
    for (let k = 1; k <= kills; k++) {
      await acksReach(k * 40);
      const postmaster = lockPid();
      let markBack!: () => void;
      back = new Promise((resolve) => {
        markBack = resolve;
      });
      server.child.kill('SIGKILL');
      await server.exited;
      expect(alive(postmaster)).toBe(true); // the orphan a crash leaves behind
      orphans.push(postmaster);
      server = await startReady();
      expect(server.output()).toContain('stopping the embedded PostgreSQL a crashed server left running');
      expect(alive(postmaster)).toBe(false);
      markBack();
    }
    await acksReach(kills * 40 + 20);
    writing = false;
    await writing$;

    const stored = await withDb(databaseUrl(), async (db) => {
      const { rows } = await db.query<{ n: string }>(
        'select count(*) as n from event where id = any($1::uuid[])',
        [acknowledged],
      );
      return Number(rows[0]!.n);
    });
    expect(stored).toBe(acknowledged.length);
    expect(new Set(orphans).size).toBe(kills);
    console.log(
      `crash-restart: ${kills} SIGKILLs mid-write survived (${orphans.length} orphaned PostgreSQL stopped), ${acknowledged.length} acknowledged writes, ${stored} stored`,
    );

    // A second server on the same DATA_DIR while this one runs: one clear line, exit 1, nothing stopped.
    port = await freePort();
    const second = await start();
    expect(await second.exited).toBe(1);
    const fatal = second
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.msg).toMatch(/^startup failed: .*in use by another running server/);
    expect(second.output()).not.toMatch(/^undefined$/m);

    const postmaster = lockPid();
    expect(alive(postmaster)).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(alive(postmaster)).toBe(false);
    // Five server and PostgreSQL starts: about a minute on a quiet 2-core machine, four or more beside a loaded one.
  }, 420_000);
});
