/**
 * One benchmark server process. `auth`: the real server. `bypass`: the same server whose
 * authentication middleware is replaced by one that resolves a fixed workspace without reading any
 * credential. The bypass exists only here (through createApp's benchmark-only option); no
 * configuration of the real server reaches it.
 */
import { loadConfig } from '../../../server/src/config';
import type { AppOptions } from '../../../server/src/http/app';
import { createLogger } from '../../../server/src/logger';
import { startServer } from '../../../server/src/server';

const [mode, workspaceId] = process.argv.slice(2);
if (mode !== 'auth' && mode !== 'bypass') throw new Error('usage: serve.ts auth|bypass [workspaceId]');

const bypass: NonNullable<AppOptions['authenticateOverride']> = (req, _res, next) => {
  req.auth = { platform: false, workspaceId, access: 'apiKey' };
  next();
};

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
const server = await startServer(config, createLogger('warn'), mode === 'bypass' ? { authenticateOverride: bypass } : {});
console.log(`READY ${server.url}`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
