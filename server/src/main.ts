import { asError, guardProcess } from './app/process-guards';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { type RunningServer, requestDrainMs, type ShutdownPlan, startServer } from './server';

/** Beyond the drain's own steps: the live sockets' close handshakes and resume grace, closing the database. */
const closeAllowanceMs = 5000;

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
  let server: RunningServer | undefined;
  guardProcess(logger, { close: async () => server?.close() });
  try {
    server = await startServer(config, logger);
  } catch (err) {
    // One line that says why (a supervisor's log shows it), then a non-zero exit.
    const error = asError(err);
    logger.fatal({ err: error }, `startup failed: ${error.message}`);
    process.exit(1);
  }
  const running = server;
  let signals = 0;
  // SIGTERM (an orchestrator, `docker stop`) drains as docs/deploy.md describes; SIGINT (Ctrl-C) skips
  // the wait for balancers. A second signal, or a drain past its bound, exits at once.
  const stop = (signal: string) => {
    if (++signals > 1) process.exit(1);
    const plan: ShutdownPlan = signal === 'SIGTERM' ? config.shutdown : { delayMs: 0, liveMoveMs: 0 };
    const boundMs = plan.delayMs + plan.liveMoveMs + requestDrainMs + closeAllowanceMs;
    logger.info({ signal, boundMs }, 'signal received');
    setTimeout(() => {
      logger.error({ boundMs }, 'shutdown took longer than its bound: exiting');
      process.exit(1);
    }, boundMs).unref();
    running.close(plan).then(
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
  console.error(asError(err));
  process.exit(1);
});
