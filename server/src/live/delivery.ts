import { liveCloseCodes } from '@gathercast/contract';
import type { LiveConnection } from './connection';
import { applyControlNotice, type ControlHost } from './control/apply-notice';
import type { Envelope, ResumedEnvelope } from './fanout';
import type { LiveRoom } from './room';
import type { LiveRooms } from './rooms';
import { type WelcomeDeps, welcomeConnection } from './welcome';

/** How many socket writes of a fanned-out message cost about as much as one join (see ForegroundLoad). */
const socketsPerJoinCost = 25;

/** What delivery needs from the gateway. */
export interface DeliveryHost extends WelcomeDeps, Omit<ControlHost, 'ctx'> {
  rooms: LiveRooms;
}

/** Called with every envelope any process published: it reaches the event's room here, if there is one. */
export function deliver(host: DeliveryHost, envelope: Envelope): void {
  const room = host.rooms.get(envelope.eventId);
  if (envelope.seq !== undefined) room?.position.delivered(envelope.seq);
  if (envelope.control) {
    void applyControlNotice(host, envelope.eventId, envelope.control).catch((err: unknown) =>
      host.ctx.logger.error({ err }, 'live room control notice failed'),
    );
    return;
  }
  // A resume concerns held leaves only, not the sockets: no walk over the room's connections.
  if (envelope.action === 'resumed') {
    room?.held.resumed(resumedParticipants(envelope));
    return;
  }
  // A message to a large audience is a burst too (a socket write costs about a 25th of a join).
  host.ctx.foreground.note((room?.sockets.size ?? 0) / socketsPerJoinCost);
  if (!room) return;
  const message = envelope.message && { ...envelope.message, seq: envelope.seq };
  // In order with the room's other deliveries; a large room's in slices, so the process keeps answering.
  room.deliveries.walk(room.sockets, (conn) => {
    if (!conn.receives(envelope.target)) return;
    if (message) conn.send(message);
    if (envelope.action === 'lobby.admit' && conn.lobby) void admit(host, room, conn);
    if (envelope.action === 'lobby.deny' && conn.lobby) {
      conn.lobby = false;
      conn.send({ type: 'lobby.denied' });
      conn.close(liveCloseCodes.lobbyDenied, 'denied by a host');
    }
  });
}

/** Who a `resumed` notice names (older processes sent one per participant in `target`). */
function resumedParticipants({ target, participants }: ResumedEnvelope): string[] {
  return participants ?? (target.to === 'participant' ? [target.participantId] : []);
}

async function admit(host: DeliveryHost, room: LiveRoom, conn: LiveConnection): Promise<void> {
  try {
    const event = await host.event(conn.eventId);
    if (!event) return;
    await welcomeConnection(host, room, conn, event, { admitted: true });
  } catch (err) {
    host.ctx.logger.error({ err }, 'lobby admission failed');
  }
}
