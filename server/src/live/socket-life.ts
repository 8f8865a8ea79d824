import type { Duplex } from 'node:stream';
import { liveCloseCodes } from '@gathercast/contract';
import type { WebSocket } from 'ws';
import { countLiveRefusal, liveSockets } from '../lib/metrics';
import { traced } from '../lib/tracing';
import { LiveConnection } from './connection';
import type { ClientAddresses } from './control/client-addresses';
import { dispatch } from './dispatch';
import { loadLiveEvent, roleIn } from './event-state';
import { answerPings } from './keep-alive';
import { leaveLobby } from './lobby';
import type { LiveRoom } from './room';
import type { LiveRooms } from './rooms';
import type { Admission } from './upgrade';
import { type WelcomeDeps, welcomeConnection } from './welcome';

/**
 * Client messages waiting for earlier ones of the same socket to be handled. Past this, a frame is
 * answered `rate_limited` at once and not kept, so a flood cannot pile up memory behind a slow query.
 */
const maxQueuedMessages = 64;

/** What a socket's life needs from the gateway. */
export interface SocketHost extends WelcomeDeps {
  rooms: LiveRooms;
  /** The server is shutting down: a lost socket's leave is not held. */
  closing(): boolean;
  /** Leaves under way (shutdown waits for them). */
  leaving: Set<Promise<void>>;
  /** Where participants last connected from (an address ban covers it after they left). */
  addresses: Pick<ClientAddresses, 'remember'>;
}

/**
 * A socket's life in its room: registered, welcomed, its messages handled one after the other, and on
 * close taken out of the room and out of presence (or the lobby).
 */
export function openSocket(
  host: SocketHost,
  ws: WebSocket,
  socket: Duplex,
  { claims, event, resume, address }: Admission,
  release: () => void,
): void {
  const { ctx } = host;
  const conn = new LiveConnection(ws, claims, event.workspaceId, roleIn(event, claims.storedRole), socket);
  conn.clientAddress = address;
  ws.once('close', release);
  ws.on('pong', () => {
    conn.alive = true;
  });
  answerPings(ws, () => {
    countLiveRefusal('ping_flood');
    ctx.logger.warn(
      { eventId: event.id, participantId: conn.participantId },
      'live socket closed: too many pings',
    );
    conn.close(liveCloseCodes.policyViolation, 'too many pings');
  });
  // A frame over maxPayload, a protocol violation or a reset: ws has already closed the socket
  // (1009 for an oversized frame, 1002 for a bad frame); only this socket ends.
  ws.on('error', (err) => {
    ctx.logger.info(
      { err, eventId: event.id, participantId: conn.participantId },
      'live socket closed on a client error',
    );
  });
  if (event.status === 'ended') {
    conn.release();
    conn.send({ type: 'error', code: 'invalid_state', detail: 'The event has ended' });
    conn.close(liveCloseCodes.eventNotLive, 'event ended');
    return;
  }
  const room = host.rooms.enter(conn);
  liveSockets.inc();
  // The welcome reads the event's last seq once its channel is listened to here: nothing in between is missed.
  const serving = host.fanout.serve(event.id);
  const ready = traced(
    'live.join',
    { 'gathercast.event.id': event.id, 'gathercast.live.role': conn.role },
    () => serving.then(() => welcomeConnection(host, room, conn, event, { resume })),
  ).catch(async (err: unknown) => {
    // The event may have ended or been deleted while the socket was being set up.
    const now = await loadLiveEvent(ctx.pool, event.id).catch(() => undefined);
    if (now === null || now?.status === 'ended') {
      conn.send({ type: 'event.ended' });
      conn.close(liveCloseCodes.eventEnded, 'event ended');
      return;
    }
    ctx.logger.error({ err }, 'live connection setup failed');
    conn.close(liveCloseCodes.setupFailed, 'setup failed');
  });
  // Messages wait for the welcome (and presence) to be done, in order.
  let chain: Promise<void> = ready;
  let queued = 0;
  ws.on('message', (data, isBinary) => {
    if (queued >= maxQueuedMessages) {
      conn.send({ type: 'error', code: 'rate_limited', detail: 'Too many messages; slow down' });
      return;
    }
    const raw = isBinary ? '' : data.toString();
    // The rate is the client's, counted as its messages arrive: messages that waited behind a slow
    // query of this process and are then handled in a quick run are not a burst the client sent.
    const allowed = conn.takeToken();
    queued++;
    chain = chain.then(() => dispatch(host, conn, raw, allowed)).finally(() => queued--);
  });
  ws.on('close', (code) => {
    conn.closed = true;
    conn.closedAt = new Date();
    // Recorded when the socket closes, off the join path: while it is open, a ban takes its address.
    if (address)
      host.addresses.remember({
        workspaceId: event.workspaceId,
        eventId: event.id,
        participantId: conn.participantId,
        address,
      });
    // No close frame (network loss, a killed peer, an unresponsive socket): the client may resume.
    conn.lostAbruptly = code === liveCloseCodes.lost;
    liveSockets.dec();
    host.rooms.leave(room, conn);
    // The event stays listened to until the leave is done or held (a held leave listens on its own).
    const leaving = chain.then(() => gone(host, room, conn)).finally(() => host.fanout.release(event.id));
    host.leaving.add(leaving);
    void leaving.then(() => host.leaving.delete(leaving));
  });
}

/**
 * After a socket closes: leave presence (participant.left on the last one anywhere), or the lobby.
 * A socket lost without a close frame leaves only after the resume window, so a resume (here or on
 * another process) finds the participant still present: no left/joined pair, no presence churn.
 */
async function gone(host: SocketHost, room: LiveRoom, conn: LiveConnection): Promise<void> {
  const { ctx, presence } = host;
  const leave = () =>
    presence
      .leave(conn.workspaceId, conn.eventId, conn.participantId, conn.closedAt)
      .catch((err: unknown) => ctx.logger.warn({ err }, 'live presence leave failed'));
  if (conn.joined && ((conn.lostAbruptly && !host.closing()) || conn.movedAway)) {
    // Held in the room the socket was in (kept while it holds leaves, even without sockets). A resume
    // elsewhere is announced on the event's channel: it is listened to while the leave is held.
    void host.fanout.serve(conn.eventId).catch(() => {});
    const leaveAndRelease = () => {
      host.fanout.release(conn.eventId);
      return leave();
    };
    host.rooms
      .open(room.eventId)
      .held.hold(conn.participantId, leaveAndRelease, ctx.config.liveHistory.windowMs);
    return;
  }
  try {
    if (conn.joined) await presence.leave(conn.workspaceId, conn.eventId, conn.participantId, conn.closedAt);
    else if (
      conn.lobby &&
      !host.rooms.local(conn.eventId).some((c) => c.participantId === conn.participantId)
    )
      await leaveLobby(ctx.pool, conn.eventId, conn.participantId);
  } catch (err) {
    ctx.logger.warn({ err }, 'live presence leave failed');
  }
}
