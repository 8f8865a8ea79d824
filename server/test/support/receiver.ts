import { eventBudgetMs } from './budgets';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body exactly as sent. */
  body: string;
  receivedAt: number;
}

export interface Reply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Never answer (the sender must time out). */
  hang?: boolean;
  delayMs?: number;
}

/** Decides the answer for the n-th request (0-based) to a path. */
export type Behaviour = (n: number, req: Received) => Reply;

/** A real HTTP receiver on loopback: records every request, answers per path as told (default 200). */
export class Receiver {
  readonly requests: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly counts = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private server!: Server;
  base = '';

  static async start(): Promise<Receiver> {
    const r = new Receiver();
    r.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const rec: Received = { path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
        const n = r.counts.get(path) ?? 0;
        r.counts.set(path, n + 1);
        r.requests.push(rec);
        for (const w of r.waiters) w();
        const reply: Reply = (r.behaviours.get(path) ?? (() => ({})))(n, rec);
        if (reply.hang) return;
        const send = () => {
          res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
          res.end(reply.body ?? 'ok');
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    });
    r.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    r.base = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}`;
    return r;
  }

  /** A URL of its own for one test, answering with `behaviour`. */
  url(name: string, behaviour?: Behaviour): string {
    const path = `/hooks/${name}`;
    if (behaviour) this.behaviours.set(path, behaviour);
    return `${this.base}${path}`;
  }

  to(name: string): Received[] {
    return this.requests.filter((r) => r.path === `/hooks/${name}`);
  }

  /** Resolves once `check` holds, or rejects after `timeoutMs`. */
  async waitFor(check: () => boolean, timeoutMs = eventBudgetMs, what = 'condition'): Promise<void> {
    if (check()) return;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        if (!check()) return;
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        clearInterval(poll);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const poll = setInterval(done, 50);
      this.waiters.add(done);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
