import { createServer } from 'node:net';

/*
 * A port for a test's listener, taken from below the kernel's ephemeral range (32768 and up on
 * Linux). A port the kernel hands out for `listen(0)` comes from that range, which is also where every
 * outgoing connection takes its local port: a process that stops and is started again on the same port
 * found it taken by some other test's client connection (EADDRINUSE on restart). Ports here are never
 * handed to a client, so a listener can leave and come back. The range ends 10,000 below 32768 so that
 * a Redis Cluster node's bus port (its port + 10,000) stays outside the ephemeral range too.
 */
const lowest = 10_000;
const highest = 22_700;

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = lowest + Math.floor(Math.random() * (highest - lowest));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${lowest} and ${highest} after 50 tries`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
