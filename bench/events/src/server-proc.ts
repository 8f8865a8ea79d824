// The real Gathercast server, in its own process, on an ephemeral loopback port.
import { Writable } from 'node:stream';
import { loadConfig } from '../../../server/src/config';
import { createLogger } from '../../../server/src/logger';
import { startServer } from '../../../server/src/server';

const databaseUrl = process.env.DATABASE_URL!;
const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl });
// Request logs go to a sink that discards them (logging stays on, at the configured level).
const sink = new Writable({ write: (_c, _e, cb) => cb() });
const server = await startServer(config, createLogger(config.logLevel, sink));
process.send?.({ url: server.url });
process.on('SIGTERM', () => void server.close().finally(() => process.exit(0)));
