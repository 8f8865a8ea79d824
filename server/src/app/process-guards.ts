import type { Logger } from 'pino';

/** How long a process that hit an uncaught exception may spend closing before it exits anyway. */
export const fatalCloseTimeoutMs = 5000;

export interface ProcessGuardOptions {
  /** Closes the server (sockets 1012, drain, database stopped); called once on an uncaught exception. */
  close?: () => Promise<void>;
  exit?: (code: number) => void;
}

/**
 * What the process does with an error nobody caught (docs/architecture.md, "When something escapes"):
 * - an unhandled promise rejection is logged (error) and the process keeps serving: a promise nobody
 *   awaited leaves no half-done synchronous state behind;
 * - an uncaught exception is logged (fatal), the server closes as on SIGTERM within 5 s, and the process
 *   exits 1 for its supervisor to restart it: its state is unknown from then on.
 * Both reach the log as one pino line with the error, never raw stderr only.
 */
export function guardProcess(logger: Logger, options: ProcessGuardOptions = {}) {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let failing = false;
  const onRejection = (reason: unknown) => {
    logger.error({ err: asError(reason) }, 'unhandled promise rejection (the process keeps running)');
  };
  const onException = (err: unknown) => {
    logger.fatal({ err: asError(err) }, 'uncaught exception: closing and exiting with 1');
    if (failing) return;
    failing = true;
    const timer = setTimeout(() => exit(1), fatalCloseTimeoutMs);
    timer.unref();
    Promise.resolve()
      .then(() => options.close?.())
      .catch((closeErr: unknown) => logger.error({ err: asError(closeErr) }, 'close after a crash failed'))
      .finally(() => {
        clearTimeout(timer);
        exit(1);
      });
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    onRejection,
    onException,
    remove() {
      process.removeListener('unhandledRejection', onRejection);
      process.removeListener('uncaughtException', onException);
    },
  };
}

/** Anything thrown, as an Error pino can serialize (a thrown string or `undefined` included). */
export function asError(value: unknown): Error {
  if (value instanceof Error) return value;
  const err = new Error(value === undefined ? 'undefined was thrown (no error given)' : String(value));
  return Object.assign(err, { thrown: value });
}
