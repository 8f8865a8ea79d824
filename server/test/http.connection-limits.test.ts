import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * The HTTP port bounds what one client address can hold: at most N open connections, and a request's
 * headers must arrive within the headers deadline (a slowloris trickling headers is cut off). Small N
 * and short deadlines here; docs/limits.md states the defaults.
 */
const maxPerAddress = 5;
let t: TestServer;
let loopbackUncapped: TestServer;
useTestServer(
  {
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(maxPerAddress),
    HTTP_HEADERS_TIMEOUT_MS: '1000',
  },
  (started) => {
    loopbackUncapped = started;
  },
);
useTestServer(
  {
    // The test's client is on the machine itself: count it like a remote one.
    CAP_LOOPBACK_ADDRESSES: 'true',
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(maxPerAddress),
    HTTP_HEADERS_TIMEOUT_MS: '1000',
    HTTP_REQUEST_TIMEOUT_MS: '2000',
    // Read from the separate metrics listener: the test's own fetches must not take connections of the capped port.
    METRICS_PORT: '0',
  },
  (started) => {
    t = started;
  },
);

interface Trickler {
  socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
}

/** Opens a connection and starts a request whose headers never finish. */
async function trickle(server = t): Promise<Trickler> {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  socket.on('data', (d) => {
    received += d.toString('utf8');
  });
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: 1');
  return { socket, closed };
}

const metric = async (reason: string) => {
  const text = await (await fetch(`http://127.0.0.1:${t.server.metricsPort}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`gathercast_http_connections_refused_total{reason="${reason}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
};

describe('HTTP connection limits', () => {
  it('refuses a connection over the per-address cap with 429 problem+json, counted in /metrics, and closes the trickling ones at the headers deadline', async () => {
    const refusedBefore = await metric('per_address');
    const timedOutBefore = await metric('request_timeout');
    const held = await Promise.all(Array.from({ length: maxPerAddress }, () => trickle()));

    const extra = await trickle();
    const refusal = await extra.closed;
    expect(refusal).toMatch(/^HTTP\/1\.1 429 /);
    expect(refusal).toMatch(/content-type: application\/problem\+json/i);
    expect(refusal).toMatch(/retry-after: 1/i);
    expect(JSON.parse(refusal.slice(refusal.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 'rate_limited',
    });

    // Each trickling connection is answered 408 request_timeout and closed: the server holds none of them.
    for (const answer of await Promise.all(held.map((h) => h.closed))) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"code":"request_timeout"');
    }
    expect(await metric('per_address')).toBe(refusedBefore + 1);
    expect(await metric('request_timeout')).toBe(timedOutBefore + maxPerAddress);

    // The address's connections are free again.
    const res = await fetch(`${t.url}/healthz`);
    expect(res.status).toBe(200);
  });

  it('does not count a loopback peer against the cap by default (a proxy on the same machine carries every client)', async () => {
    const held = await Promise.all(
      Array.from({ length: maxPerAddress + 3 }, () => trickle(loopbackUncapped)),
    );
    for (const answer of await Promise.all(held.map((h) => h.closed)))
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
