import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type JsonWebKey,
  type KeyObject,
  randomUUID,
  sign as signData,
  timingSafeEqual,
  verify as verifyData,
} from 'node:crypto';
import type { EventRole } from '@gathercast/contract';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type pg from 'pg';
import { withLockedTransaction } from '../db/pool';

/** What a gateway token says about its holder; the live gateway trusts it for the token's 5 minutes. */
export interface GatewayClaims {
  eventId: string;
  /**
   * Stable per person within the event (presence pairs joins and leaves on it): `user:<userId>` for
   * signed-in participants, `guest:<sessionId>`, `entry:<registrationId>`, `anon:<uuid>` per anonymous viewer.
   */
  participantId: string;
  /** The workspace participant identity (users table), when the holder has one. */
  userId: string | null;
  name: string | null;
  /** Narrowed to a role the event has, for the phase that governed when the token was issued. */
  role: EventRole;
  /**
   * The role before narrowing (the stored membership, or the default for the holder): the live plane
   * narrows it anew for every phase, so a speaker who reads as participant in a call is a speaker again
   * on the next broadcast stage. Narrowing never widens: it only ever reads this role in a phase.
   */
  storedRole: EventRole;
  anonymous: boolean;
  /** The credential the token was exchanged for. */
  via: 'account' | 'workspace' | 'guest' | 'entry' | 'anonymous';
}

export class InvalidGatewayToken extends Error {}

export const gatewayTokenLifetimeMs = 5 * 60 * 1000;
const issuer = 'gathercast';
const audience = 'gathercast-live';
const resumeAudience = 'gathercast-live-resume';
const algorithm = 'ES256';

interface StoredKey {
  kid: string;
  /** Imported once: signing is synchronous and reuses it (no per-token key import, no thread-pool hop). */
  privateKey: KeyObject;
  /** Imported once: node:crypto verifies with it on the thread pool (WebCrypto would import a key per token). */
  publicKey: KeyObject;
  /** Derived from the private key, so every replica holds it: the HMAC key of resume secrets. */
  resumeKey: Buffer;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact ES256 JWS: P-256 ECDSA over SHA-256, the signature as r || s (what ES256 verifiers expect). */
function signJwt(key: StoredKey, payload: Record<string, unknown>): string {
  const input = `${base64url({ alg: algorithm, kid: key.kid, typ: 'JWT' })}.${base64url(payload)}`;
  const signature = signData('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

const resumePrefix = 'r1.';

/**
 * A resume secret: `r1.<kid>.<HMAC-SHA256(eventId, participantId)>` under a key derived from the
 * signing key, so any replica checks it. Deterministic (the same for every socket of a participant in
 * an event) and a fraction of an ECDSA signature's cost, which every join paid before.
 */
function resumeSecretOf(key: StoredKey, eventId: string, participantId: string): string {
  const mac = createHmac('sha256', key.resumeKey).update(`${eventId}\n${participantId}`).digest('base64url');
  return `${resumePrefix}${key.kid}.${mac}`;
}

class InvalidJwt extends Error {}

const decodePart = (part: string): Record<string, unknown> => {
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
async function verifyJwt(
  token: string,
  keyFor: (kid: string) => KeyObject,
  expected: { audience: string; subject?: string },
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
    verifyData('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, signature, (err, ok) =>
      err ? reject(err) : resolve(ok),
    ),
  );
  if (!signed) throw new InvalidJwt('signature verification failed');
  const now = Math.floor(Date.now() / 1000);
  const payload = decodePart(p);
  if (payload.iss !== issuer) throw new InvalidJwt('unexpected issuer');
  const aud = payload.aud;
  if (!(aud === expected.audience || (Array.isArray(aud) && aud.includes(expected.audience))))
    throw new InvalidJwt('unexpected audience');
  if (expected.subject !== undefined && payload.sub !== expected.subject) throw new InvalidJwt('unexpected subject');
  for (const claim of ['exp', 'nbf', 'iat'] as const)
    if (payload[claim] !== undefined && typeof payload[claim] !== 'number') throw new InvalidJwt(`invalid ${claim}`);
  if (typeof payload.exp === 'number' && payload.exp <= now) throw new InvalidJwt('token expired');
  if (typeof payload.nbf === 'number' && payload.nbf > now) throw new InvalidJwt('token not yet valid');
  return payload;
}

/**
 * Signs and verifies live-gateway tokens (ES256 JWTs). The keys live in the database (`signing_key`):
 * the first process to start generates one under an advisory lock, every replica loads the same ones,
 * and a token naming a key this process has not seen yet makes it reload them once.
 */
export class GatewayTokens {
  private keys = new Map<string, StoredKey>();
  private current!: StoredKey;

  private constructor(private readonly pool: pg.Pool) {}

  static async load(pool: pg.Pool): Promise<GatewayTokens> {
    const tokens = new GatewayTokens(pool);
    await tokens.ensureKey();
    await tokens.reload();
    return tokens;
  }

  async sign(claims: GatewayClaims, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(now + gatewayTokenLifetimeMs);
    const token = signJwt(this.current, {
      ...claims,
      iss: issuer,
      aud: audience,
      sub: claims.participantId,
      jti: randomUUID(),
      iat: Math.floor(now / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
    });
    return { token, expiresAt };
  }

  /** The claims of a valid, unexpired token of ours; InvalidGatewayToken otherwise. */
  async verify(token: string): Promise<GatewayClaims> {
    try {
      const payload = await this.checked(token, { audience });
      const { eventId, participantId, userId, name, role, storedRole, anonymous, via } =
        payload as unknown as GatewayClaims;
      // A token from before storedRole existed (at most 5 minutes old) reads its role as stored.
      return { eventId, participantId, userId, name, role, storedRole: storedRole ?? role, anonymous, via };
    } catch (err) {
      throw new InvalidGatewayToken(err instanceof Error ? err.message : 'invalid gateway token');
    }
  }

  /**
   * A live session's resume secret (given in `welcome`): proves that a reconnect continues this
   * participant's session in this event. It opens nothing by itself; the reconnect still needs a token.
   */
  resumeSecret(eventId: string, participantId: string): Promise<string> {
    return Promise.resolve(resumeSecretOf(this.current, eventId, participantId));
  }

  /** Whether `secret` is a resume secret of ours for this event and participant. */
  async isResumeSecret(secret: string, eventId: string, participantId: string): Promise<boolean> {
    try {
      if (secret.startsWith(resumePrefix)) {
        const kid = secret.slice(resumePrefix.length, secret.lastIndexOf('.'));
        if (!this.keys.has(kid)) await this.reload();
        const key = this.keys.get(kid);
        if (!key) return false;
        const expected = Buffer.from(resumeSecretOf(key, eventId, participantId));
        const given = Buffer.from(secret);
        return given.length === expected.length && timingSafeEqual(given, expected);
      }
      // A signed secret from before resume secrets were HMACs (a rolling deploy): still honoured.
      const payload = await this.checked(secret, { audience: resumeAudience, subject: participantId });
      return payload.eventId === eventId;
    } catch {
      return false;
    }
  }

  /** The verified payload; a key this process has not seen yet makes it reload the keys once. */
  private async checked(token: string, expected: { audience: string; subject?: string }) {
    const kid = token.includes('.') ? decodePart(token.slice(0, token.indexOf('.'))).kid : undefined;
    if (typeof kid === 'string' && !this.keys.has(kid)) await this.reload();
    return verifyJwt(token, (k) => {
      const key = this.keys.get(k);
      if (!key) throw new InvalidJwt('token names an unknown key');
      return key.publicKey;
    }, expected);
  }

  private ensureKey() {
    return withLockedTransaction(this.pool, 'gathercast:signing_key:gateway', async (client) => {
      const { rowCount } = await client.query(`select 1 from signing_key where purpose = 'gateway' limit 1`);
      if (rowCount) return;
      const { privateKey, publicKey } = await generateKeyPair(algorithm, { extractable: true });
      await client.query(
        `insert into signing_key (kid, purpose, algorithm, private_jwk, public_jwk) values ($1, 'gateway', $2, $3, $4)`,
        [randomUUID(), algorithm, await exportJWK(privateKey), await exportJWK(publicKey)],
      );
    });
  }

  private async reload() {
    const { rows } = await this.pool.query<{ kid: string; private_jwk: JWK; public_jwk: JWK }>(
      `select kid, private_jwk, public_jwk from signing_key where purpose = 'gateway' order by created_at, kid`,
    );
    for (const row of rows) {
      if (this.keys.has(row.kid)) continue;
      this.keys.set(row.kid, {
        kid: row.kid,
        privateKey: createPrivateKey({ key: row.private_jwk as JsonWebKey, format: 'jwk' }),
        publicKey: createPublicKey({ key: row.public_jwk as JsonWebKey, format: 'jwk' }),
        resumeKey: Buffer.from(
          hkdfSync('sha256', Buffer.from(String(row.private_jwk.d), 'base64url'), '', resumeAudience, 32),
        ),
      });
    }
    // Every replica signs with the oldest key, so all of them agree without coordination.
    const oldest = rows[0];
    if (!oldest) throw new Error('no gateway signing key in the database');
    this.current = this.keys.get(oldest.kid)!;
  }
}
