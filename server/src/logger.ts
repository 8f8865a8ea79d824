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

/** A statement as the ORM reports a failure: `<statement with its values inlined> - <reason>`. */
const statementStart =
  /^\s*(select|insert|update|delete|with|begin|commit|rollback|savepoint|release|create|alter|drop|lock|set|truncate|copy|listen|notify|values)\b/i;
const quotedLiteral = /[Ee]?'(?:[^']|'')*'/g;
const emailAddress = /[^\s@<>"'(),;:[\]]+@[^\s@<>"'(),;:[\]]+\.[A-Za-z]{2,}/g;

/**
 * Text of an error without user data: a failed statement keeps its shape but each inlined value
 * becomes `?` (values are password hashes, key hashes, names, emails), and email addresses anywhere
 * (an SMTP refusal, for example) become `[email]`.
 */
export function withoutUserData(text: string): string {
  const lines = text.split('\n');
  // Only the statement's own lines: a stack's "at …" frames and "caused by" lines keep their quotes.
  let inStatement = false;
  return lines
    .map((line) => {
      const body = line.replace(/^(\w*(Exception|Error)?:\s*|caused by:\s*)/i, '');
      if (statementStart.test(body)) inStatement = true;
      else if (/^\s+at\s/.test(line)) inStatement = false;
      return (inStatement ? line.replace(quotedLiteral, '?') : line).replace(emailAddress, '[email]');
    })
    .join('\n');
}

/** pg errors: `detail` and `where` quote the refused row's values (`Failing row contains (…)`). */
const valueCarryingFields = ['client', 'detail', 'where', 'internalQuery', 'parameters', 'params', 'sql', 'query'];

/**
 * Errors are logged without driver internals (pg errors carry their whole client, with its statements)
 * and without the values of a failed statement.
 */
function serializeError(err: unknown): unknown {
  if (typeof err === 'string') return withoutUserData(err);
  if (!(err instanceof Error)) return err;
  const out = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  for (const field of valueCarryingFields) delete out[field];
  for (const field of ['message', 'stack'] as const) {
    if (typeof out[field] === 'string') out[field] = withoutUserData(out[field] as string);
  }
  return out;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, redact: { paths: redact, censor: '[redacted]' }, serializers: { err: serializeError } },
    destination,
  );
}
