/**
 * Node.js entry point (also picked by Bun): `node:crypto`, several times faster than
 * Web Crypto for small bodies, with synchronous variants.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { checkTimestamp, malformed, readDelivery, readSignInput, signatureMismatch, toEvent } from './core';
import type {
  RequestLike,
  SignInput,
  VerifyOptions,
  WebhookEvent,
  WebhookHeaders,
  WebhookPayload,
  WebhookSecret,
} from './types';

export { WebhookVerificationError, type WebhookVerificationErrorCode } from './errors';
export type * from './types';

/** Each secret's UTF-8 bytes, encoded once: a Buffer key is the fastest `createHmac` takes. */
const keys = new Map<string, Buffer>();

function hmacKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 16) keys.clear();
    key = Buffer.from(secret, 'utf8');
    keys.set(secret, key);
  }
  return key;
}

/** Decodes one `v1=` value. Node's hex decoder stops at the first non-hex pair, so 32 bytes from 64 characters means all were hex. */
function fromHex(hex: string): Buffer {
  const digest = Buffer.from(hex, 'hex');
  if (hex.length !== 64 || digest.length !== 32) throw malformed();
  return digest;
}

function hmac(secret: string, t: number, body: string | Uint8Array): Buffer {
  return createHmac('sha256', hmacKey(secret)).update(`${t}.`).update(body).digest();
}

/** Checks the signatures and the timestamp; returns what the headers carry. */
function checkDelivery(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options: VerifyOptions | undefined,
): { t: number; id: string; body: string | Uint8Array } {
  const { t, v1, id, secrets, body } = readDelivery(payload, headers, secret);
  let matched = false;
  if (secrets.length === 1 && v1.length === 1) {
    // The common case (one secret, one signature) without the loops' allocations.
    matched = timingSafeEqual(hmac(secrets[0]!, t, body), fromHex(v1[0]!));
  } else {
    const expected = v1.map(fromHex);
    for (const s of secrets) {
      const mac = hmac(s, t, body);
      for (const digest of expected) matched = timingSafeEqual(mac, digest) || matched;
    }
  }
  if (!matched) throw signatureMismatch(secrets);
  checkTimestamp(t, options);
  return { t, id, body };
}

function bodyText(body: string | Uint8Array): string {
  if (typeof body === 'string') return body;
  return (Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)).toString('utf8');
}

/** Synchronous `verify`: returns the parsed event or throws a `WebhookVerificationError`. */
export function verifySync(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options?: VerifyOptions,
): WebhookEvent {
  const { id, body } = checkDelivery(payload, headers, secret, options);
  return toEvent(bodyText(body), id);
}

/**
 * Verifies a delivery without parsing its body, for receivers that parse later with their own
 * schema (like stripe's `signature.verifyHeader`). Same checks as `verifySync`, including that
 * `x-gc-event-id` is the body's `id`: Gathercast writes `id` first, so that is a prefix comparison,
 * with a full parse for any other layout. Returns the verified id and signature timestamp.
 */
export function verifySignatureSync(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options?: VerifyOptions,
): { id: string; timestamp: number } {
  const { t, id, body } = checkDelivery(payload, headers, secret, options);
  // A header id with a quote or backslash can never match this prefix, and so takes the parse path.
  const prefix = `{"id":"${id}",`;
  const matches =
    typeof body === 'string'
      ? body.startsWith(prefix)
      : Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, prefix.length)).toString('latin1') ===
        prefix;
  if (!matches || id.includes('"') || id.includes('\\')) toEvent(bodyText(body), id);
  return { id, timestamp: t };
}

/**
 * Verifies a delivery and resolves to its parsed event; rejects with a
 * `WebhookVerificationError` otherwise. `payload` must be the raw body.
 */
export async function verify(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options?: VerifyOptions,
): Promise<WebhookEvent> {
  return verifySync(payload, headers, secret, options);
}

/** Same as `verify`, under the name other providers' SDKs use. */
export const constructEvent = verify;
/** Same as `verifySync`. */
export const constructEventSync = verifySync;

/** Verifies a Fetch API `Request`, reading its raw body itself. The body can be read only once. */
export async function verifyRequest(
  request: RequestLike,
  secret: WebhookSecret,
  options?: VerifyOptions,
): Promise<WebhookEvent> {
  return verifySync(await request.arrayBuffer(), request.headers, secret, options);
}

/** Builds an `x-gc-signature` value (one `v1=` per secret). For tests and local tooling. */
export function signSync(input: SignInput): string {
  const { t, secrets, body } = readSignInput(input);
  return `t=${t},${secrets.map((s) => `v1=${hmac(s, t, body).toString('hex')}`).join(',')}`;
}

/** Promise-returning `signSync`, same signature as the Web entry's `sign`. */
export async function sign(input: SignInput): Promise<string> {
  return signSync(input);
}
