import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { narrowRole } from '../events/roles';
import type { RequestAuth } from '../lib/actor';
import type { AppContext } from '../lib/context';
import { notFound, problem } from '../lib/problem';
import { refuseBanned } from './bans';
import { GatewayEventReads } from './event-reads';
import { type GatewayEvent, type GatewayIdentity, identityOf, visibleToPublic } from './gateway-identity';
import type { GatewayTokens } from './tokens';

export interface TokenDeps {
  gatewayTokens: GatewayTokens;
  publicBaseUrl: string;
  /** Event reads on the plain pool, grouped across concurrent requests (an anonymous caller never needs an entity manager). */
  events: GatewayEventReads;
}

/** The one set of token dependencies a process's token routes share (built by app/routes.ts). */
export function tokenDeps(ctx: AppContext, gatewayTokens: GatewayTokens): TokenDeps {
  return { gatewayTokens, publicBaseUrl: ctx.config.publicBaseUrl, events: new GatewayEventReads(ctx.pool) };
}

export interface GatewayTokenAnswer {
  token: string;
  expiresAt: string;
  url: string;
  role: GatewayIdentity['role'];
  anonymous: boolean;
}

/** ws:// or wss:// twin of the public base URL, with the live-gateway path and the token. */
export function liveUrl(publicBaseUrl: string, token: string): string {
  const base = new URL(publicBaseUrl);
  const scheme = base.protocol === 'https:' ? 'wss:' : 'ws:';
  const prefix = base.pathname.replace(/\/+$/, '');
  return `${scheme}//${base.host}${prefix}/v1/live?token=${encodeURIComponent(token)}`;
}

/**
 * POST /v1/auth/gateway-token (docs/live.md): a session caller gets their event role
 * narrowed to the current phase's modality; a caller without one gets an anonymous viewer token only
 * where the public may watch a broadcast; a signed-out caller on a call is 401 sign_in_required.
 */
export async function issueGatewayToken(
  deps: TokenDeps,
  /** The request's entity manager, made only for a caller with a session. */
  em: () => EntityManager,
  auth: RequestAuth,
  bearerSent: boolean,
  eventId: string,
): Promise<GatewayTokenAnswer> {
  // A Bearer token that resolves to nothing is a mistake to report, not a reason to go anonymous.
  if (bearerSent && !auth.session)
    throw problem('unauthorized', 'The Bearer session token is unknown or expired');
  // An API key is a backend, not a participant: it mints tokens for its users on another route.
  if (auth.apiKey && !auth.session)
    throw problem(
      'forbidden',
      `An API key does not join the live plane itself: mint a token for one of your users with POST /v1/events/${eventId}/live-tokens`,
    );
  const row = await deps.events.read(eventId);
  if (!row) throw notFound('Event');
  const event: GatewayEvent = {
    id: row.id,
    workspaceId: row.workspace_id,
    status: row.status,
    visibility: row.visibility,
  };

  const identity = auth.session ? await identityOf(em(), auth.session, event) : null;
  if (!identity && !visibleToPublic(event)) throw notFound('Event');
  if (event.status === 'ended')
    throw problem('invalid_state', 'The event has ended; its live plane is closed');
  const { modality } = row;
  if (!modality) throw problem('invalid_state', 'The event has no phases yet, so there is nothing to join');

  if (!identity) {
    if (modality !== 'broadcast') {
      throw problem('sign_in_required', 'Sign in to join this call: anonymous access is only for broadcasts');
    }
    return sign(deps, {
      eventId: event.id,
      participantId: `anon:${randomUUID()}`,
      userId: null,
      name: null,
      role: 'viewer',
      storedRole: 'viewer',
      anonymous: true,
      via: 'anonymous',
    });
  }
  await refuseBanned(em(), event.id, identity.participantId);
  return sign(deps, {
    ...identity,
    eventId: event.id,
    role: narrowRole(identity.role, modality),
    storedRole: identity.role,
    anonymous: false,
  });
}

/** Signs the claims and answers the token as both token routes do. */
export async function sign(
  deps: TokenDeps,
  claims: Parameters<GatewayTokens['sign']>[0],
): Promise<GatewayTokenAnswer> {
  const { token, expiresAt } = await deps.gatewayTokens.sign(claims);
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    url: liveUrl(deps.publicBaseUrl, token),
    role: claims.role,
    anonymous: claims.anonymous,
  };
}
