import { randomUUID } from 'node:crypto';
import type { EventRole } from '@gathercast/contract';
import { exportJWK, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from 'jose';
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
  privateKey: CryptoKey | Uint8Array;
  publicKey: CryptoKey | Uint8Array;
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
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: algorithm, kid: this.current.kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(claims.participantId)
      .setJti(randomUUID())
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.current.privateKey);
    return { token, expiresAt };
  }

  /** The claims of a valid, unexpired token of ours; InvalidGatewayToken otherwise. */
  async verify(token: string): Promise<GatewayClaims> {
    try {
      const { payload } = await jwtVerify(token, (header) => this.publicKeyFor(header.kid), {
        issuer,
        audience,
        algorithms: [algorithm],
      });
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
    return new SignJWT({ eventId })
      .setProtectedHeader({ alg: algorithm, kid: this.current.kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(resumeAudience)
      .setSubject(participantId)
      .sign(this.current.privateKey);
  }

  /** Whether `secret` is a resume secret of ours for this event and participant. */
  async isResumeSecret(secret: string, eventId: string, participantId: string): Promise<boolean> {
    try {
      const { payload } = await jwtVerify(secret, (header) => this.publicKeyFor(header.kid), {
        issuer,
        audience: resumeAudience,
        subject: participantId,
        algorithms: [algorithm],
      });
      return payload.eventId === eventId;
    } catch {
      return false;
    }
  }

  private async publicKeyFor(kid: string | undefined) {
    if (!kid) throw new InvalidGatewayToken('token names no key');
    if (!this.keys.has(kid)) await this.reload();
    const key = this.keys.get(kid);
    if (!key) throw new InvalidGatewayToken('token names an unknown key');
    return key.publicKey;
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
        privateKey: await importJWK(row.private_jwk, algorithm),
        publicKey: await importJWK(row.public_jwk, algorithm),
      });
    }
    // Every replica signs with the oldest key, so all of them agree without coordination.
    const oldest = rows[0];
    if (!oldest) throw new Error('no gateway signing key in the database');
    this.current = this.keys.get(oldest.kid)!;
  }
}
