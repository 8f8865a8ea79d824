import { randomUUID } from 'node:crypto';
import type { Modality } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Queryable } from '../db/pool';
import { narrowRole } from '../events/roles';
import type { RequestAuth } from '../http/auth';
import { notFound, problem } from '../lib/problem';
import { type GatewayEvent, type GatewayIdentity, identityOf, visibleToPublic } from './gateway-identity';
import type { GatewayTokens } from '../lib/gateway-tokens';

export interface TokenDeps {
  gatewayTokens: GatewayTokens;
  publicBaseUrl: string;
  /** The plain pool: the event read skips the entity manager (an anonymous caller never needs one). */
  db: Queryable;
}

export interface GatewayTokenAnswer {
  token: string;
  expiresAt: string;
  url: string;
  role: GatewayIdentity['role'];
  anonymous: boolean;
}

interface EventRow {
  id: string;
  workspace_id: string;
  status: GatewayEvent['status'];
  visibility: GatewayEvent['visibility'];
  /**
   * The modality a gateway token is issued for: the active phase's while the event is live, else the
   * first phase's (what a caller joining now, or early, walks into). Null: the event has no phases.
   */
  modality: Modality | null;
}

/** The event and its current modality in one round trip (every token asks it, thousands a second at a start). */
async function readEvent(db: Queryable, eventId: string): Promise<EventRow | undefined> {
  const { rows } = await db.query<EventRow>(
    `select e.id, e.workspace_id, e.status, e.visibility,
            (select p.modality from phase p where p.event_id = e.id
              order by p.id = e.active_phase_id is true desc, p.position limit 1) as modality
       from event e where e.id = $1`,
    [eventId],
  );
  return rows[0];
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
  const row = await readEvent(deps.db, eventId);
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
  return sign(deps, {
    ...identity,
    eventId: event.id,
    role: narrowRole(identity.role, modality),
    storedRole: identity.role,
    anonymous: false,
  });
}

async function sign(
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
