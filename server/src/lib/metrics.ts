import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's one Prometheus registry (GET /metrics, docs/deploy.md). Hot paths only increment or
 * observe a pre-resolved child; anything that needs a query or a walk (pool sizes, queue depth) is
 * read at scrape time from the sources a server registers, so an unscraped process pays nothing for it.
 * One registry per process: several servers in one process (tests) add up into the same series.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const httpDuration = new Histogram({
  name: 'gathercast_http_request_duration_seconds',
  help: 'HTTP requests by route template, method and status, with their latency',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: latencyBuckets,
  registers: [registry],
});
type Observer = { observe(value: number): void };
const httpChildren = new Map<string, Observer>();

/** Records one finished HTTP request; `route` is the route template (`/v1/events/:eventId`), never the raw path. */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  const key = `${method} ${status} ${route}`;
  let child = httpChildren.get(key);
  if (!child) {
    child = httpDuration.labels(method, route, String(status));
    httpChildren.set(key, child);
  }
  child.observe(seconds);
}

/** Something that can tell its connection counts at scrape time (a pg.Pool, the ORM's pool). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}
const pools = new Map<string, Set<() => PoolStats>>();

/** Reads a pg.Pool's counts. */
export const pgPoolStats =
  (pool: { totalCount: number; idleCount: number; waitingCount: number }) => (): PoolStats => ({
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
  });

/** Reports a connection pool under `name` until the returned function is called. */
export function trackPool(name: string, stats: () => PoolStats): () => void {
  const set = pools.get(name) ?? new Set();
  pools.set(name, set);
  set.add(stats);
  return () => set.delete(stats);
}

new Gauge({
  name: 'gathercast_db_pool_connections',
  help: 'Database connections per pool: open (total), idle, and callers waiting for one',
  labelNames: ['pool', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const [name, set] of pools) {
      const sum = { total: 0, idle: 0, waiting: 0 };
      for (const read of set) {
        const s = read();
        sum.total += s.total;
        sum.idle += s.idle;
        sum.waiting += s.waiting;
      }
      for (const state of ['total', 'idle', 'waiting'] as const) this.labels(name, state).set(sum[state]);
    }
  },
});

const queueDepths = new Set<() => Promise<number>>();

/** Reports the webhook deliveries waiting (pending) at scrape time until the returned function is called. */
export function trackWebhookQueue(depth: () => Promise<number>): () => void {
  queueDepths.add(depth);
  return () => queueDepths.delete(depth);
}

new Gauge({
  name: 'gathercast_webhook_queue_depth',
  help: 'Webhook deliveries pending (waiting for an attempt or a scheduled retry)',
  registers: [registry],
  async collect() {
    // Every process reads the same shared queue: report it once, not once per server in the process.
    const first = queueDepths.values().next().value;
    this.set(first ? await first().catch(() => Number.NaN) : 0);
  },
});

const webhookAttempts = new Counter({
  name: 'gathercast_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome (succeeded, retrying, failed, rejected, cancelled, skipped)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const webhookLatency = new Histogram({
  name: 'gathercast_webhook_delivery_latency_seconds',
  help: 'From the change that wrote the delivery to its successful attempt (retries included)',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
  registers: [registry],
});

export function countWebhookAttempt(outcome: string): void {
  webhookAttempts.inc({ outcome });
}

export function observeWebhookDelivered(createdAt: Date): void {
  webhookLatency.observe(Math.max(0, Date.now() - createdAt.getTime()) / 1000);
}

export const liveSockets = new Gauge({
  name: 'gathercast_live_sockets',
  help: 'Open live-gateway WebSockets on this process',
  registers: [registry],
});

export const liveJoins = new Counter({
  name: 'gathercast_live_joins_total',
  help: 'Live-gateway connections that joined an event (presence) on this process',
  registers: [registry],
});

const liveRefusals = new Counter({
  name: 'gathercast_live_refusals_total',
  help: 'Live sockets refused or closed by a gateway limit, by reason (participant_cap, address_cap, ping_flood)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export function countLiveRefusal(reason: string): void {
  liveRefusals.inc({ reason });
}

const fanoutLatency = new Histogram({
  name: 'gathercast_live_fanout_latency_seconds',
  help: 'From publishing a live envelope (any process) to handing it to this process\'s sockets',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export function observeFanout(publishedAtMs: number): void {
  fanoutLatency.observe(Math.max(0, Date.now() - publishedAtMs) / 1000);
}

const rateLimitRefusals = new Counter({
  name: 'gathercast_rate_limit_refusals_total',
  help: 'Requests refused with 429 rate_limited, by limit',
  labelNames: ['limit'] as const,
  registers: [registry],
});

export function countRateLimitRefusal(limit: string): void {
  rateLimitRefusals.inc({ limit });
}

const connectionRefusals = new Counter({
  name: 'gathercast_http_connections_refused_total',
  help: 'HTTP connections refused or closed by the port: per_address (over the per-address cap), request_timeout (headers or request not received in time)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export function countConnectionRefusal(reason: 'per_address' | 'request_timeout'): void {
  connectionRefusals.inc({ reason });
}

const buildInfo = new Gauge({
  name: 'gathercast_build_info',
  help: 'The running build: version, commit and Node.js version (always 1)',
  labelNames: ['version', 'commit', 'node'] as const,
  registers: [registry],
});

/** Build information as a constant 1-valued series (the usual `*_build_info` pattern). */
export function setBuildInfo(info: { version: string; commit: string; node: string }): void {
  buildInfo.reset();
  buildInfo.labels(info.version, info.commit, info.node).set(1);
}
