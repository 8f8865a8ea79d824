import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorCode, liveCloseCodes } from '@gathercast/contract';
import type { WebSocket, WebSocketServer } from 'ws';
import { roleEpochOf } from '../gateway/role-epochs';
import { type GatewayClaims, type GatewayTokens, InvalidGatewayToken } from '../gateway/tokens';
import type { AppContext } from '../lib/context';
import { LogThrottle } from '../lib/log-throttle';
import { countLiveRefusal } from '../lib/metrics';
import { problemBody } from '../lib/problem';
import { admissionRefusal } from './control/room-state';
import { currentStoredRoles, userInEventKey } from './current-roles';
import type { LiveEvent } from './event-state';
import { type ResumeRequest, resumeRequest } from './resume';
import type { SocketCaps } from './socket-caps';
import { holdUntilTurnEnds } from './write-coalescing';

export const livePath = '/v1/live';

/** What an upgrade request asks for once it passed every check: a socket for these claims in this event. */
export interface Admission {
  claims: GatewayClaims;
  event: LiveEvent;
  resume: ResumeRequest | undefined;
  /** The client's address (the first X-Forwarded-For hop with TRUST_PROXY): the per-address cap's key. */
  address: string;
}

export interface UpgradeDeps {
  ctx: AppContext;
  tokens: Pick<GatewayTokens, 'verify'>;
  event(eventId: string): Promise<LiveEvent | null>;
  /** The server is shutting down: new sockets are refused. */
  closing(): boolean;
}

/** The address an upgrade comes from, read as the HTTP routes read it (`trust proxy`). */
/** Refusals over a cap are logged at most once per reason every 10 s per process (every one is in /metrics). */
const refusalLog = new LogThrottle(10_000);

export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || req.socket.remoteAddress || 'unknown';
}

/**
 * The checks before a socket exists, each refusal an HTTP answer with a problem+json body
 * (docs/live-gateway.md): the path, a server shutting down (503), a valid gateway token (401), one
 * minted before its holder's latest role change (401: take a new one), the event (404), and the
 * room's bans and removals (403).
 * Null when the request was refused.
 */
export async function admission(
  deps: UpgradeDeps,
  req: IncomingMessage,
  socket: Duplex,
): Promise<Admission | null> {
  const { ctx } = deps;
  const url = new URL(req.url ?? '/', 'http://gateway');
  if (url.pathname !== livePath)
    return refuse(socket, 404, 'not_found', `No WebSocket endpoint at ${url.pathname}`, ctx);
  if (deps.closing()) return refuse(socket, 503, 'service_unavailable', 'The server is shutting down', ctx);
  // A crowd joining at once: webhook deliveries (their participant.joined among them) make room.
  ctx.foreground.note();
  const token = url.searchParams.get('token');
  let claims: GatewayClaims;
  try {
    if (!token) throw new InvalidGatewayToken('missing token');
    claims = await deps.tokens.verify(token);
  } catch (err) {
    if (!(err instanceof InvalidGatewayToken)) ctx.logger.error({ err }, 'gateway token check failed');
    return refuse(socket, 401, 'unauthorized', 'A valid, unexpired gateway token is required (?token=)', ctx);
  }
  if (claims.userId !== null && !(await roleStillHeld(ctx.pool, claims.userId, claims)))
    return refuse(
      socket,
      401,
      'unauthorized',
      'Your role in this event changed after this gateway token was issued; take a new one',
      ctx,
    );
  const event = await deps.event(claims.eventId).catch(() => null);
  if (!event) return refuse(socket, 404, 'not_found', 'Event not found', ctx);
  const address = clientAddress(req, ctx.config.trustProxy);
  // Banned, or a token older than the holder's removal (live/control/room-state.ts): 403.
  const refusal = admissionRefusal(event.control, claims, address);
  if (refusal) return refuse(socket, 403, 'forbidden', refusal, ctx);
  return { claims, event, resume: resumeRequest(url), address };
}

/**
 * Whether the token's role is still its holder's: minted at their latest role change or after, or
 * minted before one that left their role in this event as the token carries it (a membership in
 * another event, a change back). The rule the open sockets are checked by (role-changes.ts).
 */
async function roleStillHeld(
  db: AppContext['pool'],
  userId: string,
  claims: GatewayClaims,
): Promise<boolean> {
  if ((await roleEpochOf(db, userId)) <= (claims.roleEpoch ?? 0)) return true;
  const pair = { userId, eventId: claims.eventId };
  return (await currentStoredRoles(db, [pair])).get(userInEventKey(pair)) === claims.storedRole;
}

/** What an accepted upgrade needs besides the checks: the WebSocket server, the caps, what opens the socket. */
export interface AcceptDeps extends UpgradeDeps {
  wss: WebSocketServer;
  caps: SocketCaps;
  open(ws: WebSocket, socket: Duplex, admitted: Admission, release: () => void): void;
}

/**
 * An upgrade request: refused over HTTP (see `admission`), or accepted and handed to `open`; a socket
 * over a cap (socket-caps.ts) is refused after the handshake, so that a browser's client sees the
 * code and the reason.
 */
export async function upgrade(
  deps: AcceptDeps,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): Promise<void> {
  const admitted = await admission(deps, req, socket);
  if (!admitted) return;
  const { claims, address } = admitted;
  const participant = `${claims.eventId}/${claims.participantId}`;
  // The 101 and the first messages in one write: a syscall each is much of a join's cost.
  holdUntilTurnEnds(socket);
  deps.wss.handleUpgrade(req, socket, head, (ws) => {
    const overCap = deps.caps.take(participant, address);
    if (!overCap) return deps.open(ws, socket, admitted, () => deps.caps.give(participant, address));
    countLiveRefusal(overCap);
    const line = refusalLog.take(overCap);
    if (line.log)
      deps.ctx.logger.warn(
        { eventId: claims.eventId, reason: overCap, notLoggedSinceLastLine: line.skipped },
        'live socket refused over a cap',
      );
    const over = overCap === 'participant_cap' ? 'this participant' : 'this client address';
    ws.send(
      JSON.stringify({
        type: 'error',
        code: 'too_many_connections',
        detail: `Too many open sockets for ${over}`,
      }),
    );
    ws.close(liveCloseCodes.tooManySockets, 'too many sockets');
  });
}

function refuse(socket: Duplex, status: number, code: ErrorCode, detail: string, ctx: AppContext): null {
  const body = problemBody(ctx.config.errorsBaseUrl, code, detail);
  const reason =
    { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[status] ??
    'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  return null;
}
