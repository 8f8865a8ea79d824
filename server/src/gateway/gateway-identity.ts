import type { EventRole } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { primaryEmailOf } from '../accounts/account-view';
import { sql } from '../db/sql';
import { audienceRole, storedRoleFrom } from '../events/roles';
import type { SessionCaller } from '../lib/actor';
import { notFound } from '../lib/problem';
import { bridgedUserFor } from '../people/users-service';
import { roleEpochOf } from './role-epochs';
import type { GatewayClaims } from './tokens';

/** The event as the gateway-token rules need it. */
export interface GatewayEvent {
  id: string;
  workspaceId: string;
  status: 'draft' | 'scheduled' | 'live' | 'ended';
  visibility: 'public' | 'unlisted' | 'private';
}

/**
 * Who asks for a gateway token, before narrowing: the stored (or default) role and the identity the
 * token will carry. `audience` marks the default for people without a stored role: participant on
 * calls, which narrowing turns into viewer on broadcasts.
 */
export interface GatewayIdentity
  extends Omit<GatewayClaims, 'eventId' | 'role' | 'storedRole' | 'anonymous'> {
  role: EventRole;
}

const audience: EventRole = audienceRole;
type WorkspaceRole = 'owner' | 'admin' | 'member';

async function workspaceRoleOf(em: EntityManager, workspaceId: string, accountId: string | null) {
  if (!accountId) return null;
  const rows = await sql<{ role: WorkspaceRole }>(
    em,
    'select role from workspace_member where workspace_id = ? and account_id = ?',
    [workspaceId, accountId],
  );
  return rows[0]?.role ?? null;
}

async function membershipRoleOf(em: EntityManager, eventId: string, userId: string) {
  const rows = await sql<{ role: EventRole }>(
    em,
    'select role from event_membership where event_id = ? and user_id = ?',
    [eventId, userId],
  );
  return rows[0]?.role ?? null;
}

/** A stored membership wins; without one owners and admins are hosts (the rule: events/roles.ts). */
const roleFrom = storedRoleFrom;

/** Drafts and private events exist only for the owning workspace's people (and people invited to them). */
function hidden(event: GatewayEvent, insider: boolean, invited: boolean): boolean {
  if (insider) return false;
  if (event.status === 'draft') return true;
  return event.visibility === 'private' && !invited;
}

/** The identity behind a Bearer (or cookie) session; 404 when the session may not see the event. */
export async function identityOf(
  em: EntityManager,
  session: SessionCaller,
  event: GatewayEvent,
): Promise<GatewayIdentity> {
  switch (session.kind) {
    case 'guest':
    case 'entry': {
      // Both are scoped to one event: any other event looks missing.
      if (session.eventId !== event.id) throw notFound('Event');
      const name = typeof session.data.name === 'string' ? session.data.name : null;
      if (session.kind === 'entry')
        return {
          participantId: `entry:${session.subjectId}`,
          userId: null,
          name,
          role: audience,
          via: 'entry',
        };
      const user = await partnerUserOf(em, event, session.data.sub);
      if (user) return { ...user, via: 'guest' };
      return { participantId: `guest:${session.id}`, userId: null, name, role: audience, via: 'guest' };
    }
    case 'workspace': {
      if (session.workspaceId !== event.workspaceId || !session.subjectId) throw notFound('Event');
      const userId = session.subjectId;
      // Read before the role: a change in between leaves the token behind it, so the gateway refuses it.
      const roleEpoch = await roleEpochOf(em, userId);
      const [user] = await sql<{ name: string | null }>(em, 'select name from app_user where id = ?', [
        userId,
      ]);
      const membership = await membershipRoleOf(em, event.id, userId);
      const workspaceRole = await workspaceRoleOf(em, event.workspaceId, session.accountId);
      return {
        participantId: `user:${userId}`,
        userId,
        name: user?.name ?? null,
        role: roleFrom(membership, workspaceRole),
        via: 'workspace',
        roleEpoch,
      };
    }
    case 'account':
      return accountIdentity(em, session.accountId!, event);
  }
}

/**
 * An account: its participant identity in the event's workspace is the bridged user (the one the
 * workspace session bridge and event invites use), created on first need so that presence and
 * webhooks carry a userId. A non-member without a stored role sees only what the public sees.
 */
async function accountIdentity(
  em: EntityManager,
  accountId: string,
  event: GatewayEvent,
): Promise<GatewayIdentity> {
  const [existing] = await sql<{ id: string; name: string | null }>(
    em,
    'select id, name from app_user where workspace_id = ? and external_sub = ?',
    [event.workspaceId, `account:${accountId}`],
  );
  // Read before the roles (see the workspace case); a user made just now has had no change yet.
  const roleEpoch = existing ? await roleEpochOf(em, existing.id) : 0;
  const workspaceRole = await workspaceRoleOf(em, event.workspaceId, accountId);
  const membership = existing ? await membershipRoleOf(em, event.id, existing.id) : null;
  if (hidden(event, workspaceRole !== null, membership !== null)) throw notFound('Event');
  const user =
    existing ??
    (await em.transactional(async (tx) => {
      const [account] = await sql<{ name: string }>(tx, 'select name from account where id = ?', [accountId]);
      const email = await primaryEmailOf(tx, accountId);
      return bridgedUserFor(tx, event.workspaceId, { id: accountId, name: account!.name, email });
    }));
  return {
    participantId: `user:${user.id}`,
    userId: user.id,
    name: user.name ?? null,
    role: roleFrom(membership, workspaceRole),
    via: 'account',
    roleEpoch,
  };
}

/**
 * A partner's guest whose `sub` is a workspace user's externalSub is that user: their participant
 * identity and their stored event role (docs/live.md, "Minting access from your backend").
 */
async function partnerUserOf(em: EntityManager, event: GatewayEvent, sub: unknown) {
  if (typeof sub !== 'string' || !sub) return null;
  const [user] = await sql<{ id: string; name: string | null }>(
    em,
    'select id, name from app_user where workspace_id = ? and external_sub = ?',
    [event.workspaceId, sub],
  );
  if (!user) return null;
  return {
    participantId: `user:${user.id}`,
    userId: user.id,
    name: user.name,
    role: (await membershipRoleOf(em, event.id, user.id)) ?? audience,
    roleEpoch: await roleEpochOf(em, user.id),
  };
}

/** Whether a caller without a session may see the event at all. */
export const visibleToPublic = (event: GatewayEvent) => !hidden(event, false, false);
