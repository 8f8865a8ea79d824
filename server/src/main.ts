import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { startServer } from './server';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) console.error(`config error: ${line}`);
      process.exit(78);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, logger);
  let signals = 0;
  const stop = (signal: string) => {
    if (++signals > 1) process.exit(1);
    logger.info({ signal }, 'signal received');
    server.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
