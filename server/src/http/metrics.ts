import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Request, type Response, Router } from 'express';
import type { Config } from '../config';
import { registry } from '../lib/metrics';
import { problem, problemBody } from '../lib/problem';
import { safeEqual } from '../lib/secrets';
import { sendProblem } from './problem';

async function writeMetrics(res: { setHeader(n: string, v: string): void; end(body: string): void }) {
  const body = await registry.metrics();
  res.setHeader('Content-Type', registry.contentType);
  res.end(body);
}

function platformKeyOf(req: Request): string | undefined {
  const header = req.header('x-platform-key');
  if (header) return header;
  // Prometheus sends `authorization: Bearer …` (scrape_config.authorization) more easily than a custom header.
  const m = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '');
  return m?.[1];
}

/**
 * GET /metrics on the API port, for the platform key only (x-platform-key or `Authorization: Bearer`):
 * the figures tell about every workspace together, so no workspace credential may read them.
 * With METRICS_PORT the same text is also served without a key on a separate listener (loopback by default).
 */
export function metricsRouter(config: Config): Router {
  const router = Router();
  router.get('/metrics', async (req: Request, res: Response, next) => {
    const key = platformKeyOf(req);
    if (!config.platformKey) {
      return sendProblem(res, config.errorsBaseUrl, problem('not_found', 'Metrics are not served on this port: set PLATFORM_KEY, or METRICS_PORT for a separate listener'));
    }
    if (!key || !safeEqual(key, config.platformKey)) {
      return sendProblem(res, config.errorsBaseUrl, problem('unauthorized', 'GET /metrics needs the platform key (x-platform-key or Authorization: Bearer)'));
    }
    writeMetrics(res).catch(next);
  });
  return router;
}

/** The METRICS_PORT listener: GET /metrics only, no key, bound to METRICS_HOST (127.0.0.1 unless set). */
export async function startMetricsListener(port: number, host: string): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'application/problem+json');
      res.end(problemBody(undefined, 'not_found', 'Only GET /metrics is served here'));
      return;
    }
    writeMetrics(res).catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
