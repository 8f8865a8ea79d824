import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type JsonWebKey,
  type KeyObject,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';
import type { EventRole } from '@gathercast/contract';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type pg from 'pg';
import { withLockedTransaction } from '../db/pool';
import { sql } from '../db/sql';
import { algorithm, decodePart, InvalidJwt, signJwt, verifyJwt } from '../lib/es256-jwt';

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
  /** The credential the token was exchanged for (`server`: minted by the workspace's backend). */
  via: 'account' | 'workspace' | 'guest' | 'entry' | 'anonymous' | 'server';
  /** When it was signed (ms): a removal refuses the participant's tokens signed before it. Set by `sign`. */
  issuedAt?: number;
  /**
   * For a holder with a userId: how many role changes it had when the token was minted
   * (gateway/role-epochs.ts); the gateway refuses the token once there was another. Absent reads as 0.
   */
  roleEpoch?: number;
}

export class InvalidGatewayToken extends Error {}

export const gatewayTokenLifetimeMs = 5 * 60 * 1000;
const issuer = 'gathercast';
const audience = 'gathercast-live';
const resumeAudience = 'gathercast-live-resume';

interface StoredKey {
  kid: string;
  /** Imported once: signing is synchronous and reuses it (no per-token key import, no thread-pool hop). */
  privateKey: KeyObject;
  /** Imported once: node:crypto verifies with it on the thread pool (WebCrypto would import a key per token). */
  publicKey: KeyObject;
  /** Derived from the private key, so every replica holds it: the HMAC key of resume secrets. */
  resumeKey: Buffer;
}

const resumePrefix = 'r2.';

/**
 * A resume secret: `r2.<kid>.<from>.<HMAC-SHA256(eventId, participantId, from)>` under a key derived
 * from the signing key, so any replica checks it. `from` is the event-stream position the session
 * first joined at: a resume asks for nothing older (history from before the participant joined is
 * never replayed). The same for every socket of a session, and a fraction of an ECDSA signature's cost.
 */
function resumeSecretOf(key: StoredKey, eventId: string, participantId: string, from: number): string {
  const mac = createHmac('sha256', key.resumeKey)
    .update(`${eventId}\n${participantId}\n${from}`)
    .digest('base64url');
  return `${resumePrefix}${key.kid}.${from}.${mac}`;
}

/**
 * Unknown key ids: a token naming a key this process has not loaded makes it reload the keys, at
 * most once per `unknownKidReloadMs` (concurrent misses wait for that one reload, so a new key of
 * another replica is honoured within about a second); a kid still unknown after a reload is refused
 * without another for `unknownKidMissMs`. At most `maxRememberedMisses` misses are remembered.
 */
const unknownKidReloadMs = 1000;
const unknownKidMissMs = 60_000;
const maxRememberedMisses = 1000;
/** Key ids are UUIDs (ensureKey): anything else is refused without a reload. */
const kidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Signs and verifies live-gateway tokens (ES256 JWTs). The keys live in the database (`signing_key`):
 * the first process to start generates one under an advisory lock, every replica loads the same ones,
 * and a token naming a key this process has not seen yet makes it reload them once.
 *
 * Why this is in lib/ and not gateway/: the instance travels in AppContext (lib/context.ts, the shared
 * layer), which both the gateway domain (minting) and the live plane (verifying, resume secrets) read,
 * and the layer rule (test/architecture.imports.test.ts) forbids shared code importing a domain, even
 * for a type. Moving it means the composition root handing it to those two domains instead of through
 * AppContext; until then it stays here, with the JWT mechanics in lib/es256-jwt.ts.
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
      issuedAt: now,
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
      const { eventId, participantId, userId, name, role, storedRole, anonymous, via, roleEpoch, issuedAt } =
        payload as unknown as GatewayClaims;
      // A token from before storedRole existed (at most 5 minutes old) reads its role as stored.
      const claims: GatewayClaims = {
        eventId,
        participantId,
        userId,
        name,
        role,
        storedRole: storedRole ?? role,
        anonymous,
        via,
        issuedAt: typeof issuedAt === 'number' ? issuedAt : Number(payload.iat) * 1000,
      };
      if (typeof roleEpoch === 'number') claims.roleEpoch = roleEpoch;
      return claims;
    } catch (err) {
      throw new InvalidGatewayToken(err instanceof Error ? err.message : 'invalid gateway token');
    }
  }

  /**
   * A live session's resume secret (given in `welcome`): proves that a reconnect continues this
   * participant's session in this event. It opens nothing by itself; the reconnect still needs a token.
   */
  resumeSecret(eventId: string, participantId: string, from: number): Promise<string> {
    return Promise.resolve(resumeSecretOf(this.current, eventId, participantId, from));
  }

  /**
   * The position a resume secret of ours for this event and participant may resume from (the one its
   * session joined at); null when it is not such a secret. Secrets of earlier versions (`r1.`, signed
   * JWTs) state no position and resume nothing: that socket starts afresh.
   */
  async resumeFloor(secret: string, eventId: string, participantId: string): Promise<number | null> {
    const [prefix, kid, from, mac, ...rest] = secret.split('.');
    if (`${prefix}.` !== resumePrefix || !kid || !from || !mac || rest.length) return null;
    const floor = Number(from);
    if (!/^\d+$/.test(from) || !Number.isSafeInteger(floor) || !(await this.knows(kid))) return null;
    const expected = Buffer.from(resumeSecretOf(this.keys.get(kid)!, eventId, participantId, floor));
    const given = Buffer.from(secret);
    return given.length === expected.length && timingSafeEqual(given, expected) ? floor : null;
  }

  readonly #misses = new Map<string, number>();
  #reloading: Promise<void> | undefined;
  #reloadedAt = 0;

  /** Whether a key is loaded, reloading the keys for an unknown kid within the bounds above. */
  private async knows(kid: string): Promise<boolean> {
    if (this.keys.has(kid)) return true;
    if (!kidPattern.test(kid)) return false;
    const missedAt = this.#misses.get(kid);
    if (missedAt !== undefined && Date.now() - missedAt < unknownKidMissMs) return false;
    await this.reloadSoon();
    if (this.keys.has(kid)) return true;
    this.#misses.delete(kid);
    this.#misses.set(kid, Date.now());
    if (this.#misses.size > maxRememberedMisses) this.#misses.delete(this.#misses.keys().next().value!);
    return false;
  }

  /** One reload at a time, at most one per unknownKidReloadMs; callers meanwhile share it. */
  private reloadSoon(): Promise<void> {
    this.#reloading ??= (async () => {
      const wait = this.#reloadedAt + unknownKidReloadMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        await this.reload();
      } finally {
        this.#reloadedAt = Date.now();
        this.#reloading = undefined;
      }
    })();
    return this.#reloading;
  }

  /** The verified payload; a key this process has not seen yet makes it reload the keys (see knows). */
  private async checked(token: string, expected: { audience: string; subject?: string }) {
    const kid = token.includes('.') ? decodePart(token.slice(0, token.indexOf('.'))).kid : undefined;
    if (typeof kid === 'string') await this.knows(kid);
    return verifyJwt(
      token,
      (k) => {
        const key = this.keys.get(k);
        if (!key) throw new InvalidJwt('token names an unknown key');
        return key.publicKey;
      },
      { issuer, ...expected },
    );
  }

  private ensureKey() {
    return withLockedTransaction(this.pool, 'gathercast:signing_key:gateway', async (client) => {
      const { rowCount } = await client.query(`select 1 from signing_key where purpose = 'gateway' limit 1`);
      if (rowCount) return;
      const { privateKey, publicKey } = await generateKeyPair(algorithm, { extractable: true });
      await sql(
        client,
        `insert into signing_key (kid, purpose, algorithm, private_jwk, public_jwk) values (?, 'gateway', ?, ?, ?)`,
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
