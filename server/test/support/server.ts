import { Writable } from 'node:stream';
import { type ClientOptions, createClient, type GathercastClient } from '@gathercast/sdk';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { type RunningServer, startServer } from '../../src/server';
import { createTestDatabase } from './database';
import { liftedLimits } from './lifted-limits';
import { freePort } from './ports';

export interface TestServer {
  url: string;
  server: RunningServer;
  databaseUrl: string;
  /** Every log line the server wrote so far, parsed. */
  logs(): Record<string, unknown>[];
  /** Raw log text, for "no secret ever appears" checks. */
  logText(): string;
  /** An SDK client for this server (maxRetries 0 unless given). */
  client(options?: Omit<ClientOptions, 'baseUrl'>): GathercastClient;
  close(): Promise<void>;
}

/**
 * Starts the real server on an ephemeral port and a private database. `env` overrides the defaults
 * below; a key set to undefined is left unset, so the config default applies.
 */
export async function startTestServer(env: Record<string, string | undefined> = {}): Promise<TestServer> {
  const databaseUrl = await createTestDatabase();
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    PLATFORM_KEY: 'test-platform-key',
    ...liftedLimits,
    ...env,
  } as NodeJS.ProcessEnv);
  const server = await startServer(config, createLogger(config.logLevel, sink));
  return {
    url: server.url,
    server,
    databaseUrl,
    logs: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    logText: () => lines.join('\n'),
    // No retries unless a test asks: a test asserts the answer the server gave (sdk.resilience.test.ts covers retries).
    client: (options = {}) => createClient({ baseUrl: server.url, maxRetries: 0, ...options }),
    close: () => server.close(),
  };
}
