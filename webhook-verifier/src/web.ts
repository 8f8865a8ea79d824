/**
 * Web Crypto entry point: Deno, Bun, Cloudflare Workers, Vercel Edge, browsers and
 * any runtime with `globalThis.crypto.subtle`. No `node:*` import, no `Buffer`.
 */
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

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Imported HMAC keys, one per secret (importKey is the slow part of a Web Crypto HMAC). */
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 16) keys.clear();
    key = globalThis.crypto.subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    key.catch(() => keys.delete(secret));
    keys.set(secret, key);
  }
  return key;
}

/** The signed message `<t>.<raw body>` as bytes. */
function message(t: number, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(`${t}.${body}`);
  const prefix = encoder.encode(`${t}.`);
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix);
  bytes.set(body, prefix.length);
  return bytes;
}

async function hmac(secret: string, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', await hmacKey(secret), data));
}

/** Decodes one `v1=` value; anything but 64 hex digits makes the header malformed. */
function fromHex(hex: string): Uint8Array {
  if (!/^[\da-f]{64}$/i.test(hex)) throw malformed();
  return new Uint8Array(hex.match(/../g)!.map((byte) => Number.parseInt(byte, 16)));
}

const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Constant-time comparison of two digests: time depends on length only. */
function equalDigests(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
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
  const delivery = readDelivery(payload, headers, secret);
  const data = message(delivery.t, delivery.body);
  const expected = delivery.v1.map(fromHex);
  const macs = await Promise.all(delivery.secrets.map((s) => hmac(s, data)));
  let matched = false;
  for (const mac of macs) for (const digest of expected) matched = equalDigests(mac, digest) || matched;
  if (!matched) throw signatureMismatch(delivery.secrets);
  checkTimestamp(delivery.t, options);
  const { body } = delivery;
  return toEvent(typeof body === 'string' ? body : decoder.decode(body), delivery.id);
}

/** Same as `verify`, under the name other providers' SDKs use. */
export const constructEvent = verify;

/** Verifies a Fetch API `Request`, reading its raw body itself. The body can be read only once. */
export async function verifyRequest(
  request: RequestLike,
  secret: WebhookSecret,
  options?: VerifyOptions,
): Promise<WebhookEvent> {
  return verify(await request.arrayBuffer(), request.headers, secret, options);
}

/** Builds an `x-gc-signature` value (one `v1=` per secret). For tests and local tooling. */
export async function sign(input: SignInput): Promise<string> {
  const { t, secrets, body } = readSignInput(input);
  const data = message(t, body);
  const macs = await Promise.all(secrets.map((s) => hmac(s, data)));
  return `t=${t},${macs.map((mac) => `v1=${toHex(mac)}`).join(',')}`;
}
