/**
 * Run inside a private network namespace (see webhooks.ssrf.test.ts) where 203.0.114.1, a public
 * address, is assigned to the namespace's own loopback interface, so connecting to it never leaves
 * the machine. Two listeners on one port count the TCP connections they get: one on 127.0.0.1, one
 * on 203.0.114.1. The sender's resolver answers the public address first and 127.0.0.1 on every
 * later lookup (DNS rebinding). Prints what each listener saw as JSON.
 */
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:net';
import { WebhookHttpClient } from '../../src/webhooks/http-sender';

const publicAddress = '203.0.114.1';
const counts = { loopback: 0, public: 0 };

function listener(host: string, port: number, key: keyof typeof counts): Promise<Server> {
  const server = createServer((socket) => {
    counts[key]++;
    socket.destroy(); // no TLS here: the attempt fails right after connecting, which is all we need
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

const first = await listener('127.0.0.1', 0, 'loopback');
const port = (first.address() as { port: number }).port;
const second = await listener(publicAddress, port, 'public');

const lookups: string[] = [];
const rebinding = (_host: string, _opts: unknown, cb: (err: null, addresses: LookupAddress[]) => void) => {
  const address = lookups.length === 0 ? publicAddress : '127.0.0.1';
  lookups.push(address);
  cb(null, [{ address, family: 4 }]);
};

const client = new WebhookHttpClient(false, rebinding as never);
const results = [];
for (let i = 0; i < 3; i++) {
  const r = await client.post(
    `https://rebind.test:${port}/hook`,
    { 'content-type': 'application/json' },
    '{}',
    2000,
  );
  results.push({ status: r.status, error: r.error });
}
client.close();
first.close();
second.close();
console.log(JSON.stringify({ counts, lookups, results }));
