import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the proxy does with one request, in arrival order (requests past the plan are passed through):
 * - `pass`: forward it and relay the answer;
 * - `drop-response`: forward it, let the server answer in full, then cut the client's connection (the work
 *   is done, the client never hears of it);
 * - `hang`: never answer (the connection stays open until the proxy closes);
 * - `{ status, headers, body }`: answer this without forwarding.
 */
export type Fault =
  | 'pass'
  | 'drop-response'
  | 'hang'
  | { status: number; headers?: Record<string, string>; body?: unknown };

export interface ProxiedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  userAgent: string | undefined;
  fault: Fault;
  /** The status and headers the server answered, when the request reached it. */
  upstreamStatus?: number;
  upstreamHeaders?: IncomingMessage['headers'];
}

export interface FaultProxy {
  url: string;
  /** Faults for the next requests, in order. */
  plan(...faults: Fault[]): void;
  /** Every request the proxy received, with what it did. */
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/** A loopback HTTP proxy in front of `target` that injects the faults of its plan. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const queue: Fault[] = [];
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();

  const forward = (req: IncomingMessage, body: Buffer, seen: ProxiedRequest) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            seen.upstreamStatus = res.statusCode;
            seen.upstreamHeaders = res.headers;
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) });
          });
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const fault = queue.shift() ?? 'pass';
    const seen: ProxiedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      userAgent: req.headers['user-agent'],
      fault,
    };
    requests.push(seen);
    if (fault === 'hang') return;
    if (typeof fault === 'object') {
      res.writeHead(fault.status, { 'content-type': 'application/problem+json', ...fault.headers });
      res.end(fault.body === undefined ? '' : JSON.stringify(fault.body));
      return;
    }
    const answer = await forward(req, Buffer.concat(chunks), seen);
    if (fault === 'drop-response') {
      req.socket.destroy();
      return;
    }
    const headers = { ...answer.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    plan: (...faults) => queue.push(...faults),
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
