import net, { type AddressInfo } from 'node:net';

export interface TcpProxy {
  /** `ws://127.0.0.1:<port>`: the proxy's address for WebSocket URLs. */
  wsUrl: string;
  /** The network fails: open connections are cut (no close frame) and new ones refused until `restore()`. */
  cut(): void;
  restore(): void;
  /** New connections go to this port (a load balancer moving on from a dead process). */
  retarget(port: number): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy in front of a server port, whose network can be cut. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let target = targetPort;
  let down = false;
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target, '127.0.0.1');
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const s of pair) {
      s.on('error', end);
      s.on('close', end);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    cut() {
      down = true;
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    restore() {
      down = false;
    },
    retarget(port: number) {
      target = port;
    },
    close: async () => {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
