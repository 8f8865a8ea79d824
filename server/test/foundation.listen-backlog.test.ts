import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database';
import { ChildServer } from './support/process';

/**
 * A crashed process's audience reconnects to the others all at once. The kernel queues connections
 * the server has not accepted yet up to its listen backlog and drops the handshakes beyond it, and
 * each dropped client waits out a SYN retransmit (1 s, then 3, 7, 15 s) before trying again. So the
 * server listens with a backlog of 4,096 (capped by net.core.somaxconn), not Node's 511.
 */
const crowd = 1500;
/** A connection the kernel queued completes at once; one it dropped waits at least a second. */
const queuedWithinMs = 700;

let server: ChildServer;
beforeAll(async () => {
  server = await ChildServer.start(await createTestDatabase());
}, 120_000);
afterAll(async () => {
  server?.signal('SIGCONT');
  await server?.kill();
});

describe('the listen backlog', () => {
  it(`queues ${crowd} connections arriving while the process is frozen, dropping none`, async () => {
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    if (somaxconn < crowd) throw new Error(`net.core.somaxconn is ${somaxconn}: this test needs ${crowd}`);
    const { port } = new URL(server.url);
    // Frozen, the server accepts nothing: only the kernel's queue holds the crowd.
    server.signal('SIGSTOP');
    const sockets: net.Socket[] = [];
    try {
      const started = performance.now();
      const connectMs: number[] = [];
      await new Promise<void>((resolve) => {
        // A dropped handshake is retried while the server stays frozen: wait a bounded time, not for all.
        const timer = setTimeout(resolve, 2 * queuedWithinMs);
        for (let i = 0; i < crowd; i++) {
          const s = net.connect(Number(port), '127.0.0.1', () => {
            connectMs.push(performance.now() - started);
            if (connectMs.length === crowd) {
              clearTimeout(timer);
              resolve();
            }
          });
          s.on('error', () => {});
          sockets.push(s);
        }
      });
      const queued = connectMs.filter((ms) => ms <= queuedWithinMs).length;
      expect(crowd - queued, `${crowd - queued} of ${crowd} connections were not queued at once`).toBe(0);
    } finally {
      server.signal('SIGCONT');
      for (const s of sockets) s.destroy();
    }
  });
});
