import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database';
import { freePort } from './support/ports';
import { spawnServer, waitForReady } from './support/process';

describe('SIGTERM on the real process', () => {
  it('lets an in-flight request finish, then exits 0 after closing the database', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const proc = spawnServer({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: await createTestDatabase() });
    await waitForReady(url);

    const head = '{"email":"a@b.co",';
    const tail = '"password":"password123"}';
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/accounts/login',
          headers: { 'content-type': 'application/json', 'content-length': String(head.length + tail.length) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write(head);
      setTimeout(() => req.end(tail), 500);
    });
    await new Promise((r) => setTimeout(r, 150));
    proc.child.kill('SIGTERM');

    expect(await answer).toBe(401);
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('stopped');
  }, 60_000);
});
