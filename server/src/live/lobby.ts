import type { EventRole, LiveServerMessage } from '@gathercast/contract';
import type pg from 'pg';
import type { GatewayClaims } from '../gateway/tokens';
import { LiveError } from './connection';
import type { Handler } from './deps';
import type { LiveEvent } from './event-state';
import { isModerator } from './media';
import type { PresenceInfo } from './presence-store';

/**
 * The meeting lobby (docs/live-gateway.md). A walk-in is a signed-in account (account
 * or workspace session) that is neither a member of the event nor of its workspace, opening an event
 * whose governing phase is a meeting. It waits (welcome lobby:true, no media) until a host admits or
 * denies it; the decision is kept in live_lobby, so a reconnect is not asked again.
 */
export type LobbyState = 'none' | 'waiting' | 'denied';

export async function lobbyStateAtConnect(
  db: Pick<pg.Pool, 'query'>,
  event: LiveEvent,
  claims: GatewayClaims,
  role: EventRole,
): Promise<LobbyState> {
  if (event.governingPhase?.modality !== 'meeting') return 'none';
  if (isModerator(role) || (claims.via !== 'account' && claims.via !== 'workspace')) return 'none';
  // An account with no identity in the workspace (no userId) is a walk-in for certain.
  const { rows } = await db.query<{ member: boolean; decision: string | null }>(
    `select $2::uuid is not null and (
              exists (select 1 from event_membership m where m.event_id = $1 and m.user_id = $2)
              or exists (select 1 from app_user u join workspace_member w
                           on w.account_id = u.account_id and w.workspace_id = $3
                          where u.id = $2)) as member,
            (select status from live_lobby where event_id = $1 and participant_id = $4) as decision`,
    [event.id, claims.userId, event.workspaceId, claims.participantId],
  );
  const row = rows[0]!;
  if (row.member || row.decision === 'admitted') return 'none';
  return row.decision === 'denied' ? 'denied' : 'waiting';
}

/** Puts a waiter on the list hosts see (keeping an earlier decision) and tells the hosts. */
export async function enterLobby(db: Pick<pg.Pool, 'query'>, eventId: string, info: PresenceInfo) {
  await db.query(
    `insert into live_lobby (event_id, participant_id, info, status) values ($1, $2, $3, 'waiting')
     on conflict (event_id, participant_id) do update set info = excluded.info, updated_at = now()
       where live_lobby.status = 'waiting'`,
    [eventId, info.participantId, JSON.stringify(info)],
  );
}

/** A waiter who went away before a decision is taken off the list. */
export async function leaveLobby(db: Pick<pg.Pool, 'query'>, eventId: string, participantId: string) {
  await db.query(
    `delete from live_lobby where event_id = $1 and participant_id = $2 and status = 'waiting'`,
    [eventId, participantId],
  );
}

export const waitingMessage = (info: PresenceInfo): LiveServerMessage => ({
  type: 'lobby.waiting',
  participant: {
    participantId: info.participantId,
    name: info.name,
    role: info.role,
    anonymous: info.anonymous,
  },
});

/** The waiters a host sees on connecting. */
export async function lobbySnapshot(
  db: Pick<pg.Pool, 'query'>,
  eventId: string,
): Promise<LiveServerMessage[]> {
  const { rows } = await db.query<{ info: PresenceInfo }>(
    `select info from live_lobby where event_id = $1 and status = 'waiting' order by updated_at`,
    [eventId],
  );
  return rows.map((r) => waitingMessage(r.info));
}

const decide =
  <T extends 'lobby.admit' | 'lobby.deny'>(status: 'admitted' | 'denied'): Handler<T> =>
  async (h, message) => {
    const { participantId } = message as { participantId: string };
    const { rowCount } = await h.deps.ctx.pool.query(
      `update live_lobby set status = $3, updated_at = now()
        where event_id = $1 and participant_id = $2 and status = 'waiting'`,
      [h.event.id, participantId, status],
    );
    if (!rowCount) throw new LiveError('not_found', 'Nobody with that participantId is waiting in the lobby');
    await h.deps.fanout.publish({
      eventId: h.event.id,
      target: { to: 'participant', participantId },
      action: status === 'admitted' ? 'lobby.admit' : 'lobby.deny',
    });
  };

export const admitFromLobby = decide<'lobby.admit'>('admitted');
export const denyFromLobby = decide<'lobby.deny'>('denied');
