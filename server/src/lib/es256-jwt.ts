import { type KeyObject, sign as signData, verify as verifyData } from 'node:crypto';

/**
 * Compact ES256 JWS (JWT) signing and checking with node:crypto keys imported once: what the gateway
 * token service needs from a JWT library, without its per-token key import or thread-pool hop on
 * signing. The keys and the claims are the caller's (gateway/tokens.ts).
 */
export const algorithm = 'ES256';

export class InvalidJwt extends Error {}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact ES256 JWS: P-256 ECDSA over SHA-256, the signature as r || s (what ES256 verifiers expect). */
export function signJwt(
  key: { kid: string; privateKey: KeyObject },
  payload: Record<string, unknown>,
): string {
  const input = `${base64url({ alg: algorithm, kid: key.kid, typ: 'JWT' })}.${base64url(payload)}`;
  const signature = signData('sha256', Buffer.from(input), {
    key: key.privateKey,
    dsaEncoding: 'ieee-p1363',
  });
  return `${input}.${signature.toString('base64url')}`;
}

/** One part of a compact JWS (header or payload) as its JSON object; InvalidJwt when it is not one. */
export const decodePart = (part: string): Record<string, unknown> => {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidJwt('malformed token');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InvalidJwt('malformed token');
  return value as Record<string, unknown>;
};

/**
 * Checks a compact ES256 JWS of ours and its registered claims, as a JWT library would: the header
 * names ES256 and a key (nothing critical we do not know), the signature holds under that key, `iss`
 * and `aud` are ours, `exp` (when present) is in the future and `nbf` (when present) is not.
 * The P-256 verification runs on libuv's thread pool, off the event loop: a crowd reconnecting at
 * once (a crashed process's audience) costs the loop little per token, so it keeps accepting
 * connections (a loop busy verifying thousands of tokens in one go let the kernel's accept queue
 * overflow, and each dropped client waited out a SYN retransmit) and the other cores share the work.
 */
export async function verifyJwt(
  token: string,
  keyFor: (kid: string) => KeyObject,
  expected: { issuer: string; audience: string; subject?: string },
): Promise<Record<string, unknown>> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new InvalidJwt('malformed token');
  const [h, p, s] = parts as [string, string, string];
  const header = decodePart(h);
  if (header.alg !== algorithm) throw new InvalidJwt('unexpected algorithm');
  if (header.crit !== undefined || header.b64 !== undefined) throw new InvalidJwt('unsupported header');
  if (typeof header.kid !== 'string') throw new InvalidJwt('token names no key');
  const signature = Buffer.from(s, 'base64url');
  const key = keyFor(header.kid);
  const signed = await new Promise<boolean>((resolve, reject) =>
    verifyData(
      'sha256',
      Buffer.from(`${h}.${p}`),
      { key, dsaEncoding: 'ieee-p1363' },
      signature,
      (err, ok) => (err ? reject(err) : resolve(ok)),
    ),
  );
  if (!signed) throw new InvalidJwt('signature verification failed');
  const now = Math.floor(Date.now() / 1000);
  const payload = decodePart(p);
  if (payload.iss !== expected.issuer) throw new InvalidJwt('unexpected issuer');
  const aud = payload.aud;
  if (!(aud === expected.audience || (Array.isArray(aud) && aud.includes(expected.audience))))
    throw new InvalidJwt('unexpected audience');
  if (expected.subject !== undefined && payload.sub !== expected.subject)
    throw new InvalidJwt('unexpected subject');
  for (const claim of ['exp', 'nbf', 'iat'] as const)
    if (payload[claim] !== undefined && typeof payload[claim] !== 'number')
      throw new InvalidJwt(`invalid ${claim}`);
  if (typeof payload.exp === 'number' && payload.exp <= now) throw new InvalidJwt('token expired');
  if (typeof payload.nbf === 'number' && payload.nbf > now) throw new InvalidJwt('token not yet valid');
  return payload;
}
