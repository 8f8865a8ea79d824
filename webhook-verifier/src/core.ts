/**
 * Runtime-neutral parts of verification: reading headers, parsing `x-gc-signature`,
 * the timestamp window and the final body checks. The HMAC itself lives in the
 * Node (`node:crypto`) and Web (`crypto.subtle`) entry points.
 */
import { WebhookVerificationError as Failure } from './errors';
import type {
  SignInput,
  VerifyOptions,
  WebhookEvent,
  WebhookHeaders,
  WebhookPayload,
  WebhookSecret,
} from './types';

export const SIGNATURE_HEADER = 'x-gc-signature';
export const EVENT_ID_HEADER = 'x-gc-event-id';
export const EVENT_TYPE_HEADER = 'x-gc-event-type';

const UNIX_SECONDS = /^\d{1,12}$/;

export interface Delivery {
  /** Signature timestamp, unix seconds. */
  t: number;
  /** Every `v1=` value, as sent: the entry points check and decode them (`malformed()` if not 64 hex digits). */
  v1: string[];
  /** Value of `x-gc-event-id`. */
  id: string;
  secrets: readonly string[];
  /** The raw body as a string, or as bytes. */
  body: string | Uint8Array;
}

export function getHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function')
    return (headers.get as (n: string) => string | null)(name) ?? undefined;
  const record = headers as Record<string, string | readonly string[] | null | undefined>;
  let value = record[name];
  if (value === undefined) {
    for (const key in record) {
      if (key.toLowerCase() === name) {
        value = record[key];
        break;
      }
    }
  }
  return value == null ? undefined : typeof value === 'string' ? value : value.join(',');
}

function required(headers: WebhookHeaders, name: string): string {
  const value = getHeader(headers, name);
  if (!value) {
    throw new Failure('missing_header', `Missing ${name} header: is a proxy dropping x-gc-* headers?`);
  }
  return value;
}

/** Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`; unknown schemes (v0=, v2=…) are ignored. */
export function parseSignatureHeader(value: string): { t: number; v1: string[] } {
  // Fast path for what Gathercast sends outside rotations: "t=<digits>,v1=<64 chars>".
  const comma = value.indexOf(',');
  if (value.length === comma + 68 && value.startsWith('t=') && value.startsWith('v1=', comma + 1)) {
    const t = value.slice(2, comma);
    if (UNIX_SECONDS.test(t)) return { t: +t, v1: [value.slice(comma + 4)] };
  }
  let t = -1;
  const v1: string[] = [];
  for (const raw of value.split(',')) {
    const part = raw.trim();
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (eq < 0 || (key === 't' && (t >= 0 || !UNIX_SECONDS.test(val)))) throw malformed();
    if (key === 't') t = Number(val);
    else if (key === 'v1') v1.push(val);
  }
  if (t < 0 || !v1.length) throw malformed();
  return { t, v1 };
}

export function malformed(): Failure {
  return new Failure(
    'malformed_header',
    `Malformed ${SIGNATURE_HEADER}: expected t=<unix seconds>,v1=<hex SHA-256>`,
  );
}

export function toSecrets(secret: WebhookSecret): readonly string[] {
  if (typeof secret === 'string' && secret) return [secret];
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(secrets) || !secrets.length || secrets.some((s) => typeof s !== 'string' || !s)) {
    throw new TypeError('secret must be a whsec_… string or an array of them');
  }
  return secrets;
}

/** The raw body as a string or a byte view; anything else is a programming error. */
export function toBody(payload: WebhookPayload): string | Uint8Array {
  if (typeof payload === 'string') return payload;
  if (payload instanceof Uint8Array) return payload;
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  if (ArrayBuffer.isView(payload))
    return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  throw new TypeError(
    'payload must be the raw body (string or bytes): was the body parsed before verification?',
  );
}

/** Reads everything the HMAC step needs; throws on missing or malformed headers. */
export function readDelivery(
  payload: WebhookPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
): Delivery {
  const secrets = toSecrets(secret);
  const body = toBody(payload);
  if (!headers || typeof headers !== 'object') throw new TypeError('headers required');
  const { t, v1 } = parseSignatureHeader(required(headers, SIGNATURE_HEADER));
  return { t, v1, id: required(headers, EVENT_ID_HEADER), secrets, body };
}

export function signatureMismatch(secrets: readonly string[]): Failure {
  const hint = secrets.some((s) => !s.startsWith('whsec_')) ? ' Keep its whsec_ prefix.' : '';
  return new Failure(
    'signature_mismatch',
    `No signature matches: was the body parsed before verification? Else check the signing secret.${hint}`,
  );
}

/** Throws unless |now − t| is within the tolerance (both directions). */
export function checkTimestamp(t: number, options: VerifyOptions | undefined): void {
  const tolerance = options?.toleranceSeconds ?? 300;
  if (!(tolerance >= 0)) throw new TypeError('toleranceSeconds must be >= 0');
  const skew = Math.floor((options?.now ? options.now() : Date.now()) / 1000) - t;
  if (Math.abs(skew) > tolerance) {
    throw new Failure(
      'timestamp_out_of_tolerance',
      `Timestamp off by ${skew} s (tolerance ${tolerance} s): a replay, or a wrong clock?`,
    );
  }
}

/** Parses the verified body and checks that it is the event named by `x-gc-event-id`. */
export function toEvent(text: string, id: string): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    // falls through to the object check
  }
  if (!event || typeof event !== 'object' || Array.isArray(event)) {
    throw new Failure('invalid_payload', 'Signed body is not a JSON object');
  }
  if ((event as { id?: unknown }).id !== id) {
    throw new Failure('id_mismatch', `${EVENT_ID_HEADER} header differs from the body's id`);
  }
  return event as WebhookEvent;
}

/** Validates `sign()` input; `timestamp` defaults to now. */
export function readSignInput(input: SignInput): {
  t: number;
  secrets: readonly string[];
  body: string | Uint8Array;
} {
  const t = input.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(t) || t < 0 || t > 1e11) throw new TypeError('timestamp must be unix seconds');
  return { t, secrets: toSecrets(input.secret), body: toBody(input.payload) };
}
