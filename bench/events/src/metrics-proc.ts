// One server process for the metrics-cost bench: the real server, with HTTP metrics on or (BENCH_METRICS=off) off.
import { Writable } from 'node:stream';
import { loadConfig } from '../../../server/src/config';
import { createLogger } from '../../../server/src/logger';
import { startServer } from '../../../server/src/server';

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1' });
const sink = new Writable({ write: (_c, _e, cb) => cb() });
const server = await startServer(config, createLogger(config.logLevel, sink), {
  httpMetrics: process.env.BENCH_METRICS !== 'off',
});
process.send?.({ url: server.url });
process.on('SIGTERM', () => void server.close().finally(() => process.exit(0)));
