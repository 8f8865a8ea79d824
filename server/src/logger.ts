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

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: redact, censor: '[redacted]' } }, destination);
}
