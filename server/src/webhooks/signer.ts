import { createHmac } from 'node:crypto';

/**
 * The `x-gc-signature` header: `t=<unix seconds>` followed by one
 * `v1=<hex HMAC-SHA256 of "<t>.<raw body>">` per secret, in the order given (newest first during a
 * rotation). The key is the whole secret string, `whsec_` prefix included, as UTF-8 bytes.
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  const message = `${timestamp}.${body}`;
  const parts = [`t=${timestamp}`];
  for (const secret of secrets) {
    parts.push(`v1=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(message, 'utf8').digest('hex')}`);
  }
  return parts.join(',');
}

export const unixSeconds = (now: Date = new Date()) => Math.floor(now.getTime() / 1000);
