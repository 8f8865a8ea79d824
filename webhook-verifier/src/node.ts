/**
 * Node.js entry point (also picked by Bun): `node:crypto`, several times faster than
 * Web Crypto for small bodies, with synchronous variants.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  checkTimestamp,
  type Delivery,
  malformed,
  readDelivery,
  readSignInput,
  signatureMismatch,
  toEvent,
} from './core';
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

/** Reads the delivery, then checks its signatures and timestamp; returns it. */
function checkDelivery(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options: VerifyOptions | undefined,
): Delivery {
  const delivery = readDelivery(payload, headers, secret);
  const { t, v1, secrets, body } = delivery;
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
  return delivery;
}

const idOpening = '{"id":"';
/** The expected digest of the usual path, decoded in place: nothing runs between the write and the comparison. */
const expectedDigest = Buffer.alloc(32);

/**
 * The usual delivery checked in one pass, with no intermediate objects: one string secret, a plain
 * header object, `t=<digits>,v1=<64 hex>`, a string or byte body. Returns undefined for anything
 * else and when no signature matches: the general path (`checkDelivery`) then decides and names the
 * error. A matching signature with a stale timestamp throws here, exactly as the general path would.
 */
function checkUsualDelivery(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options: VerifyOptions | undefined,
): Pick<Delivery, 't' | 'id' | 'body'> | undefined {
  if (typeof secret !== 'string' || !secret || !headers) return undefined;
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) return undefined;
  const record = headers as Record<string, unknown>;
  const signature = record['x-gc-signature'];
  const id = record['x-gc-event-id'];
  if (typeof signature !== 'string' || typeof id !== 'string' || !id) return undefined;
  const comma = signature.indexOf(',');
  if (comma < 3 || comma > 14 || signature.length !== comma + 68) return undefined;
  if (!signature.startsWith('t=') || !signature.startsWith('v1=', comma + 1)) return undefined;
  let t = 0;
  for (let i = 2; i < comma; i++) {
    const digit = signature.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    t = t * 10 + digit;
  }
  if (expectedDigest.write(signature.slice(comma + 4), 'hex') !== 32) return undefined;
  if (!timingSafeEqual(hmac(secret, t, payload), expectedDigest)) return undefined;
  // The signature matched: the timestamp decides now, as on the general path (same check, same error).
  checkTimestamp(t, options);
  return { t, id, body: payload };
}

/**
 * Whether the raw body starts with `{"id":"<id>",`, compared in place. An id with a quote or
 * backslash never does (JSON would escape it), and so takes the parse path.
 */
function startsWithId(body: string | Uint8Array, id: string): boolean {
  if (id.includes('"') || id.includes('\\')) return false;
  const end = 7 + id.length;
  return typeof body === 'string'
    ? body.startsWith(idOpening) && body.startsWith(id, 7) && body.startsWith('",', end)
    : Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, end + 2)).toString('latin1') ===
        `${idOpening}${id}",`;
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
  const { id, body } =
    checkUsualDelivery(payload, headers, secret, options) ?? checkDelivery(payload, headers, secret, options);
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
  const { t, id, body } =
    checkUsualDelivery(payload, headers, secret, options) ?? checkDelivery(payload, headers, secret, options);
  if (!startsWithId(body, id)) toEvent(bodyText(body), id);
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
