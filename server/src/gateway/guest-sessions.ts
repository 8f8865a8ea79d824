import type { EntityManager } from '@mikro-orm/postgresql';
import { decodeJwt, errors as joseErrors, type JWTPayload, jwtVerify } from 'jose';
import { sql } from '../db/sql';
import { createEventSession } from '../identity/sessions';
import { notFound, problem } from '../lib/problem';
import { type PartnerKeys, partnerAlgorithm } from './partner-keys';
import type { EventRow } from '../events/mapping';

/** A guest session lasts 4 hours, or until its event ends (a trigger cuts it short). */
export const guestSessionLifetimeMs = 4 * 3600 * 1000;
/** Clock skew allowed between the partner and us for exp, nbf and iat. */
export const partnerClockToleranceSeconds = 60;

export interface GuestSession {
  sessionToken: string;
  expiresAt: string;
  eventId: string;
  guest: { sub: string; name: string | null; email: string | null };
}

type GuestEventRow = Pick<EventRow, 'id' | 'workspace_id' | 'status' | 'visibility'>;

interface IntegrationRow {
  id: string;
  issuer: string;
  jwks_url: string | null;
  public_key_pem: string | null;
}

const invalidToken = (why: string) => problem('invalid_token', `The partner JWT is not accepted: ${why}`);

const optionalString = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null;

/**
 * Exchanges a partner's RS256 JWT for an ephemeral gcg_ guest session scoped to one event. The JWT
 * must verify against an active guest integration of the event's workspace whose issuer equals its
 * `iss`; the guest's identity (sub, name, email) comes from the claims and is kept only on the
 * session row, which expires: no account, workspace member or user record is created.
 */
export async function exchangeGuestToken(
  em: EntityManager,
  keys: PartnerKeys,
  eventId: string,
  token: string,
): Promise<GuestSession> {
  const [event] = await sql<GuestEventRow>(
    em,
    'select id, workspace_id, status, visibility from event where id = ?',
    [eventId],
  );
  // Drafts are on no public surface.
  if (!event || event.status === 'draft') throw notFound('Event');

  let claims: JWTPayload;
  try {
    claims = await verifyPartnerToken(em, keys, event.workspace_id, token);
  } catch (err) {
    // A private event is not revealed to a caller whose JWT no partner of its workspace vouches for.
    if (
      event.visibility === 'private' &&
      err instanceof Error &&
      'code' in err &&
      err.code === 'invalid_token'
    ) {
      throw notFound('Event');
    }
    throw err;
  }
  if (event.status === 'ended')
    throw problem('invalid_state', 'The event has ended; guest sessions are no longer issued');

  const guest = {
    sub: claims.sub!,
    name: optionalString(claims.name, 200),
    email: optionalString(claims.email, 320),
  };
  if (guest.email) {
    const owned = await sql(em, 'select 1 from account_email where email = lower(?) limit 1', [guest.email]);
    if (owned.length) {
      throw problem('account_exists', 'An account uses this email address: sign in to join the event');
    }
  }

  const session = await createEventSession(em, {
    kind: 'guest',
    workspaceId: event.workspace_id,
    eventId: event.id,
    subjectId: guest.sub,
    data: { iss: claims.iss, sub: guest.sub, name: guest.name, email: guest.email },
    expiresAt: new Date(Date.now() + guestSessionLifetimeMs),
  });
  return {
    sessionToken: session.token,
    expiresAt: session.expiresAt.toISOString(),
    eventId: event.id,
    guest,
  };
}

/** The verified claims; 400 invalid_token for anything a partner of this workspace did not sign. */
async function verifyPartnerToken(
  em: EntityManager,
  keys: PartnerKeys,
  workspaceId: string,
  token: string,
): Promise<JWTPayload> {
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(token);
  } catch {
    throw invalidToken('not a JWT');
  }
  if (typeof unverified.iss !== 'string' || unverified.iss === '') throw invalidToken('no iss claim');
  // Read on every exchange, so a revoked integration is refused from its revocation on.
  const integrations = await sql<IntegrationRow>(
    em,
    `select id, issuer, jwks_url, public_key_pem from guest_integration
      where workspace_id = ? and issuer = ? and revoked_at is null order by created_at, id`,
    [workspaceId, unverified.iss],
  );
  if (!integrations.length) throw invalidToken('its issuer is not a guest integration of this workspace');

  let lastError: unknown;
  for (const integration of integrations) {
    try {
      const key = await keys.keyFor({
        id: integration.id,
        jwksUrl: integration.jwks_url,
        publicKeyPem: integration.public_key_pem,
      });
      const options = {
        issuer: integration.issuer,
        algorithms: [partnerAlgorithm],
        requiredClaims: ['exp', 'sub'],
        clockTolerance: partnerClockToleranceSeconds,
      };
      const { payload } =
        typeof key === 'function'
          ? await jwtVerify(token, key, options)
          : await jwtVerify(token, key, options);
      if (typeof payload.sub !== 'string' || payload.sub === '') throw invalidToken('no sub claim');
      return payload;
    } catch (err) {
      lastError = err;
    }
  }
  throw failureOf(lastError);
}

function failureOf(err: unknown) {
  if (err instanceof Error && 'code' in err && err.code === 'invalid_token') return err;
  if (err instanceof joseErrors.JWTExpired) return invalidToken('it has expired');
  if (err instanceof joseErrors.JWTClaimValidationFailed) return invalidToken(err.message);
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return invalidToken('only RS256 is accepted');
  if (err instanceof joseErrors.JWSSignatureVerificationFailed)
    return invalidToken('the signature does not verify');
  if (err instanceof joseErrors.JWKSNoMatchingKey) return invalidToken('no key of the partner matches it');
  const fetchFailed =
    err instanceof joseErrors.JWKSTimeout ||
    err instanceof joseErrors.JWKSInvalid ||
    (err instanceof joseErrors.JOSEError && err.code === 'ERR_JOSE_GENERIC') ||
    (err instanceof Error && !(err instanceof joseErrors.JOSEError));
  if (fetchFailed) {
    // The partner's key set could not be fetched or read: not the token's fault, and worth retrying.
    return problem('service_unavailable', "The partner's JWKS could not be fetched; try again shortly");
  }
  return invalidToken(err instanceof Error ? err.message : 'it does not verify');
}
