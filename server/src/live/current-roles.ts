import type { EventRole } from '@gathercast/contract';
import type { Queryable } from '../db/pool';
import { storedRoleFrom } from '../events/roles';

/** A user in an event: whose role to resolve. */
export interface UserInEvent {
  userId: string;
  eventId: string;
}

export const userInEventKey = ({ userId, eventId }: UserInEvent) => `${eventId}/${userId}`;

/**
 * The stored role each user has in each event now, by the rule gateway tokens are minted with
 * (events/roles.ts: the event membership, else the workspace role behind the owner and admin
 * default), for many pairs in one statement. Keyed by `userInEventKey`; a user who no longer exists is
 * left out.
 */
export async function currentStoredRoles(
  db: Queryable,
  pairs: UserInEvent[],
): Promise<Map<string, EventRole>> {
  const roles = new Map<string, EventRole>();
  if (pairs.length === 0) return roles;
  const { rows } = await db.query<{
    user_id: string;
    event_id: string;
    membership: EventRole | null;
    workspace_role: 'owner' | 'admin' | 'member' | null;
  }>(
    `select p.user_id, p.event_id, m.role as membership,
            (select wm.role from workspace_member wm
              where wm.workspace_id = u.workspace_id
                and (wm.account_id = u.account_id or u.external_sub = 'account:' || wm.account_id)
              order by wm.role = 'owner' desc, wm.role = 'admin' desc limit 1) as workspace_role
       from unnest($1::uuid[], $2::uuid[]) as p(user_id, event_id)
       join app_user u on u.id = p.user_id
       left join event_membership m on m.event_id = p.event_id and m.user_id = p.user_id`,
    [pairs.map((p) => p.userId), pairs.map((p) => p.eventId)],
  );
  for (const r of rows)
    roles.set(
      userInEventKey({ userId: r.user_id, eventId: r.event_id }),
      storedRoleFrom(r.membership, r.workspace_role),
    );
  return roles;
}
