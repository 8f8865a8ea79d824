import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/ports';
import { spawnServer, waitForReady } from './support/process';

/** The embedded server's port, from its postmaster.pid (line 4). */
function embeddedPort(dataDir: string): number {
  return Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
}

describe('the embedded PostgreSQL (DATABASE_URL unset)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gc-embedded-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('initialises on first start, stops on SIGTERM, and keeps the data across a restart', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '' };

    const first = spawnServer(env);
    await waitForReady(url, 60_000).catch((err) => {
      first.child.kill('SIGKILL');
      throw new Error(`${err.message}\n${first.output()}`);
    });
    const db = new pg.Client({
      connectionString: `postgres://postgres:postgres@127.0.0.1:${embeddedPort(dataDir)}/gathercast`,
    });
    await db.connect();
    await db.query(`insert into workspace (id, name, slug) values ('11111111-1111-4111-8111-111111111111', 'Kept', 'kept')`);
    await db.end();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('stopped');

    const second = spawnServer(env);
    try {
      await waitForReady(url, 60_000);
      const again = new pg.Client({
        connectionString: `postgres://postgres:postgres@127.0.0.1:${embeddedPort(dataDir)}/gathercast`,
      });
      await again.connect();
      const { rows } = await again.query('select name from workspace where slug = $1', ['kept']);
      await again.end();
      expect(rows).toEqual([{ name: 'Kept' }]);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  }, 120_000);
});
