import { describe, expect, it } from 'vitest';
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

    const answer = slowLogin(port, 500);
    await new Promise((r) => setTimeout(r, 150));
    proc.child.kill('SIGTERM');

    expect((await answer).status).toBe(401);
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('stopped');
  }, 60_000);
});
