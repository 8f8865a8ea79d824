import { describe, expect, it } from 'vitest';
import { waitUntil } from './support/budgets';
import { createTestDatabase } from './support/database';
import { freePort } from './support/ports';
import { spawnServer, waitForReady } from './support/process';
import { slowLogin } from './support/slow-request';

describe('SIGTERM on the real process', () => {
  it('lets an in-flight request finish, then exits 0 after closing the database', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const proc = spawnServer({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: await createTestDatabase() });
    await waitForReady(url);

    const inFlight = slowLogin(port);
    await inFlight.accepted;
    proc.child.kill('SIGTERM');
    await waitUntil(() => proc.output().includes('shutting down'), 'the shutdown to start');
    inFlight.finish();

    expect((await inFlight.answer).status).toBe(401);
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('stopped');
  }, 120_000);
});
