import type { EventRole, Modality } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import { grantableRoles, narrowRole } from '../events/roles';
import { type Actor, isAdmin } from '../lib/actor';
import { notFound, problem } from '../lib/problem';
import { upsertUser } from '../people/users-service';
import { refuseBanned } from './bans';
import type { TokenEventRow } from './event-reads';
import { sign, type TokenDeps } from './gateway-token-service';
import { roleEpochOf } from './role-epochs';
import type { GatewayClaims } from './tokens';

/** Who a server-minted token or join link is for (the request body's holder). */
export interface HolderInput {
  user?: { id: string } | { externalSub: string; name?: string };
  identity?: { id: string; name?: string | null };
  registration?: { id: string };
  role?: EventRole;
}

/** The holder once resolved: the identity the token carries, and the role when one was named. */
export interface Holder {
  participantId: string;
  userId: string | null;
  name: string | null;
  role: EventRole | null;
}

export interface MintedToken {
  token: string;
  expiresAt: string;
  url: string;
  role: EventRole;
  storedRole: EventRole;
  participantId: string;
  userId: string | null;
  anonymous: boolean;
}

/** The workspace's event, still open to the live plane (not ended, with phases). */
export async function openEvent(deps: TokenDeps, workspaceId: string, eventId: string) {
  const row = await deps.events.read(eventId);
  if (!row || row.workspace_id !== workspaceId) throw notFound('Event');
  if (row.status === 'ended') throw problem('invalid_state', 'The event has ended; its live plane is closed');
  if (!row.modality)
    throw problem('invalid_state', 'The event has no phases yet, so there is nothing to join');
  return row as TokenEventRow & { modality: Modality };
}

/**
 * Resolves the body's holder: a workspace user (by id, or by externalSub, upserted with the name), a
 * registrant of the event, or an ad-hoc identity; a named role must be one the caller could grant.
 */
export async function resolveHolder(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: HolderInput,
): Promise<Holder> {
  if (input.role) {
    const modalities = await sql<{ modality: Modality }>(
      em,
      'select distinct modality from phase where event_id = ?',
      [eventId],
    );
    const grantable = grantableRoles(
      modalities.map((m) => m.modality),
      isAdmin(actor),
    );
    if (!grantable.includes(input.role))
      throw problem(
        'role_not_on_event',
        `You cannot give ${input.role} on this event; roles you can give: ${grantable.join(', ')}`,
        { acceptedRoles: grantable },
      );
  }
  const role = input.role ?? null;
  if (input.identity)
    return {
      participantId: `ext:${input.identity.id}`,
      userId: null,
      name: input.identity.name ?? null,
      role,
    };
  if (input.registration) {
    const [reg] = await sql<{ name: string }>(
      em,
      'select name from registration where id = ? and event_id = ?',
      [input.registration.id, eventId],
    );
    if (!reg) throw notFound('Registration');
    return { participantId: `entry:${input.registration.id}`, userId: null, name: reg.name, role };
  }
  const ref = input.user!;
  if ('id' in ref) {
    const [user] = await sql<{ name: string | null }>(
      em,
      'select name from app_user where id = ? and workspace_id = ?',
      [ref.id, actor.workspaceId],
    );
    if (!user) throw notFound('User');
    return { participantId: `user:${ref.id}`, userId: ref.id, name: user.name, role };
  }
  const { user } = await upsertUser(em, actor.workspaceId, { externalSub: ref.externalSub, name: ref.name });
  return { participantId: `user:${user.id}`, userId: user.id, name: user.name ?? null, role };
}

/** The holder's role now: the named one, else the user's stored membership, else the audience default. */
async function storedRoleOf(em: EntityManager, eventId: string, holder: Holder): Promise<EventRole> {
  if (holder.role) return holder.role;
  if (!holder.userId) return 'participant';
  const [m] = await sql<{ role: EventRole }>(
    em,
    'select role from event_membership where event_id = ? and user_id = ?',
    [eventId, holder.userId],
  );
  return m?.role ?? 'participant';
}

/** Signs a 5-minute token for the holder on the event, narrowed to the phase that governs now. */
export async function mintFor(
  em: EntityManager,
  deps: TokenDeps,
  event: TokenEventRow & { modality: Modality },
  holder: Holder,
): Promise<MintedToken> {
  await refuseBanned(em, event.id, holder.participantId);
  const storedRole = await storedRoleOf(em, event.id, holder);
  const claims: GatewayClaims = {
    eventId: event.id,
    participantId: holder.participantId,
    userId: holder.userId,
    name: holder.name,
    role: narrowRole(storedRole, event.modality),
    storedRole,
    anonymous: false,
    via: 'server',
    // The gateway refuses a token minted before the user's latest role change (gateway/role-epochs.ts).
    roleEpoch: holder.userId ? await roleEpochOf(em, holder.userId) : 0,
  };
  return {
    ...(await sign(deps, claims)),
    storedRole,
    participantId: holder.participantId,
    userId: holder.userId,
  };
}
