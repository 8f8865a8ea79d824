import { randomUUID } from 'node:crypto';
import type { Modality } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import { narrowRole } from '../events/roles';
import type { RequestAuth } from '../http/auth';
import { notFound, problem } from '../lib/problem';
import { type GatewayEvent, type GatewayIdentity, identityOf, visibleToPublic } from './gateway-identity';
import type { GatewayTokens } from '../lib/gateway-tokens';

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
  active_phase_id: string | null;
}

/**
 * The modality a gateway token is issued for: the active phase's while the event is live, else the
 * first phase's (what a caller joining now, or early, walks into). Null: the event has no phases.
 */
async function currentModality(em: EntityManager, event: EventRow): Promise<Modality | null> {
  const phases = await sql<{ id: string; modality: Modality }>(
    em,
    'select id, modality from phase where event_id = ? order by position',
    [event.id],
  );
  const active = event.active_phase_id ? phases.find((p) => p.id === event.active_phase_id) : undefined;
  return (active ?? phases[0])?.modality ?? null;
}

/** ws:// or wss:// twin of the public base URL, with the live-gateway path and the token. */
export function liveUrl(publicBaseUrl: string, token: string): string {
  const base = new URL(publicBaseUrl);
  const scheme = base.protocol === 'https:' ? 'wss:' : 'ws:';
  const prefix = base.pathname.replace(/\/+$/, '');
  return `${scheme}//${base.host}${prefix}/v1/live?token=${encodeURIComponent(token)}`;
}

/**
 * POST /v1/auth/gateway-token (spec "Gateway token rules"): a session caller gets their event role
 * narrowed to the current phase's modality; a caller without one gets an anonymous viewer token only
 * where the public may watch a broadcast; a signed-out caller on a call is 401 sign_in_required.
 */
export async function issueGatewayToken(
  deps: { gatewayTokens: GatewayTokens; publicBaseUrl: string },
  em: EntityManager,
  auth: RequestAuth,
  bearerSent: boolean,
  eventId: string,
): Promise<GatewayTokenAnswer> {
  // A Bearer token that resolves to nothing is a mistake to report, not a reason to go anonymous.
  if (bearerSent && !auth.session)
    throw problem('unauthorized', 'The Bearer session token is unknown or expired');
  const [row] = await sql<EventRow>(
    em,
    'select id, workspace_id, status, visibility, active_phase_id from event where id = ?',
    [eventId],
  );
  if (!row) throw notFound('Event');
  const event: GatewayEvent = {
    id: row.id,
    workspaceId: row.workspace_id,
    status: row.status,
    visibility: row.visibility,
  };

  const identity = auth.session ? await identityOf(em, auth.session, event) : null;
  if (!identity && !visibleToPublic(event)) throw notFound('Event');
  if (event.status === 'ended')
    throw problem('invalid_state', 'The event has ended; its live plane is closed');
  const modality = await currentModality(em, row);
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
  deps: { gatewayTokens: GatewayTokens; publicBaseUrl: string },
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
