import pino, { type DestinationStream, type Logger } from 'pino';

/** Secrets never reach a log line: these paths are censored wherever they appear. */
const redact = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-platform-key"]',
  'password',
  'secret',
  'token',
  'sessionToken',
  '*.password',
  '*.secret',
  '*.token',
  '*.sessionToken',
];

/** Errors are logged without driver internals (pg errors carry their whole client, with its statements). */
function serializeError(err: Error): Record<string, unknown> {
  const out = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  delete out.client;
  return out;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, redact: { paths: redact, censor: '[redacted]' }, serializers: { err: serializeError } },
    destination,
  );
}
