import type { LiveServerMessage } from '@gathercast/contract';
import type { LiveConnection } from './connection';
import { castOf, type LiveEvent, roleIn } from './event-state';
import type { LiveGateway } from './gateway';
import { lobbySnapshot, lobbyStateAtConnect } from './lobby';
import { isModerator, type MediaGrant, phaseGrant } from './media';
import { moderationSnapshot } from './moderation';
import { pollSnapshot } from './polls';
import { isTablePhase } from './tables';

const welcomeOf = async (
  gw: LiveGateway,
  conn: LiveConnection,
  event: LiveEvent,
  media: MediaGrant,
): Promise<LiveServerMessage> => ({
  type: 'welcome',
  identity: conn.identity(),
  event: { id: event.id, title: event.title, status: event.status },
  activePhase: event.activePhase
    ? {
        id: event.activePhase.id,
        position: event.activePhase.position,
        modality: event.activePhase.modality,
        status: event.activePhase.status,
      }
    : null,
  cast: await castOf(gw.ctx.pool, event),
  media,
  lobby: conn.lobby,
});

export const subjectOf = (conn: LiveConnection) => ({
  eventId: conn.eventId,
  participantId: conn.participantId,
  name: conn.claims.name,
  role: conn.role,
});

/**
 * A new socket's first moments: the welcome (or the lobby), then presence (participant.joined on
 * the participant's first connection anywhere), the current banner, hands and polls (and lobby
 * waiters for hosts), and a table in a breakout or rotation. With `admitted` the same for a lobby
 * waiter a host just let in, `lobby.admitted` taking the welcome's place.
 */
export async function welcomeConnection(
  gw: LiveGateway,
  conn: LiveConnection,
  event: LiveEvent,
  { admitted = false } = {},
): Promise<void> {
  const { config, pool } = gw.ctx;
  conn.role = roleIn(event, conn.claims.storedRole);
  if (!admitted) {
    const lobby = await lobbyStateAtConnect(pool, event, conn.claims, conn.role);
    if (lobby !== 'none') {
      conn.lobby = true;
      conn.sendNow(await welcomeOf(gw, conn, event, phaseGrant(config, subjectOf(conn), null) as MediaGrant));
      conn.release();
      if (lobby === 'denied') {
        conn.lobby = false;
        conn.send({ type: 'lobby.denied' });
        conn.close(4003, 'denied by a host');
        return;
      }
      await gw.lobbyWait(conn);
      return;
    }
  }
  conn.lobby = false;
  const modality = event.activePhase?.modality ?? null;
  const media = await phaseGrant(config, subjectOf(conn), modality);
  if (admitted) conn.send({ type: 'lobby.admitted', media });
  else conn.sendNow(await welcomeOf(gw, conn, event, media));
  if (conn.closed) return;
  conn.joined = true;
  await gw.presence.join(conn.workspaceId, event.id, conn.presenceInfo());
  const snapshot = [
    ...(await moderationSnapshot(pool, event.id)),
    ...(await pollSnapshot(pool, event.id)),
    ...(isModerator(conn.role) ? await lobbySnapshot(pool, event.id) : []),
  ];
  for (const message of snapshot) conn.sendNow(message);
  conn.release();
  const phase = event.activePhase;
  if (isTablePhase(phase) && conn.role === 'participant') {
    await gw.phaseChanges.seatAll(event, phase, [conn]);
    gw.phaseChanges.scheduleRotation(event);
  }
}
