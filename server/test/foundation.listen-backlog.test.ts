import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database';
import { ChildServer } from './support/process';
import { eventually } from './support/wait';

/**
 * A crashed process's audience reconnects to the others all at once. The kernel queues connections
 * the server has not accepted yet up to its listen backlog and drops the handshakes beyond it, and
 * each dropped client waits out a SYN retransmit (1 s, then 3, 7, 15 s) before trying again. So the
 * server listens with a backlog of 4,096 (capped by net.core.somaxconn), not Node's 511.
 */
const crowd = 1500;

/** How many connections wait in the kernel's accept queue of the listening socket on 127.0.0.1:port. */
function acceptQueueLength(port: number): number {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A `;
  const line = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .find((l) => l.includes(local));
  if (!line) throw new Error(`no listening socket on 127.0.0.1:${port}`);
  // For a listening socket, rx_queue (after the colon in "tx_queue:rx_queue") is the accept queue.
  const queues = line.trim().split(/\s+/)[4]!;
  return Number.parseInt(queues.split(':')[1]!, 16);
}

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
    const port = Number(new URL(server.url).port);
    // Frozen, the server accepts nothing: only the kernel's queue holds the crowd, and a handshake
    // beyond its length is dropped (the queue never holds more than the backlog + 1).
    server.signal('SIGSTOP');
    const sockets: net.Socket[] = [];
    try {
      for (let i = 0; i < crowd; i++) sockets.push(net.connect(port, '127.0.0.1').on('error', () => {}));
      const queued = await eventually(
        async () => acceptQueueLength(port),
        (n) => n >= crowd,
        5000,
      );
      expect(queued).toBe(crowd);
    } finally {
      server.signal('SIGCONT');
      for (const s of sockets) s.destroy();
    }
  });
});
