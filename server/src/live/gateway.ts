import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { LiveServerMessage } from '@gathercast/contract';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AppContext } from '../lib/context';
import { type GatewayClaims, InvalidGatewayToken } from '../lib/gateway-tokens';
import { liveSockets } from '../lib/metrics';
import { traced } from '../lib/tracing';
import { LiveAudience } from './audience';
import { closeCodes, LiveConnection } from './connection';
import type { LiveDeps } from './deps';
import { dispatch } from './dispatch';
import { eventCacheMs, LiveEventCache, largeAudience } from './event-cache';
import { type LiveEvent, loadLiveEvent, roleIn } from './event-state';
import type { Envelope, Fanout } from './fanout';
import { timedFanout } from './fanout-metrics';
import { PgFanout } from './fanout-pg';
import { RedisFanout } from './fanout-redis';
import { JoinSnapshots } from './join-snapshot';
import { pingAll, pingIntervalMs } from './keep-alive';
import { enterLobby, leaveLobby, waitingMessage } from './lobby';
import { PhaseChanges } from './phase-changes';
import { LivePresence } from './presence';
import { PgPresenceStore } from './presence-pg';
import { RedisPresenceStore } from './presence-redis';
import { defaultPresenceTiming, type PresenceStore, type PresenceTiming } from './presence-store';
import { QuestionWrites } from './question-writes';
import { LiveResumes, type ResumeRequest, resumeRequest } from './resume';
import { SeqReads } from './seq-reads';
import { LiveTables } from './tables';
import { welcomeConnection } from './welcome';
import { holdUntilTurnEnds } from './write-coalescing';

export const livePath = '/v1/live';
/** Largest client message accepted; bigger frames close the socket with 1009. */
const maxPayloadBytes = 16 * 1024;
/**
 * Client messages waiting for earlier ones of the same socket to be handled. Past this, a frame is
 * answered `rate_limited` at once and not kept, so a flood cannot pile up memory behind a slow query.
 */
const maxQueuedMessages = 64;
/** How many socket writes of a fanned-out message cost about as much as one join (see ForegroundLoad). */
const socketsPerJoinCost = 25;

export interface LiveOptions {
  presence?: PresenceTiming;
}

/**
 * The live gateway: WebSockets on GET /v1/live?token=… beside the API. Each
 * process keeps its own sockets; envelopes (fan-out), presence and the event's state are shared
 * through PostgreSQL or, with REDIS_URL, Redis, so processes on one database serve an event together.
 */
export class LiveGateway implements LiveDeps {
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: maxPayloadBytes });
  readonly #byEvent = new Map<string, Set<LiveConnection>>();
  readonly #events = new LiveEventCache((eventId) => loadLiveEvent(this.ctx.pool, eventId));
  #freshen: NodeJS.Timeout | undefined;
  readonly presence: LivePresence;
  readonly questions: QuestionWrites;
  readonly tables: LiveTables;
  readonly phaseChanges: PhaseChanges;
  readonly audience: LiveAudience;
  readonly snapshots: JoinSnapshots;
  readonly resumes: LiveResumes;
  readonly seqs: SeqReads;
  readonly #leaving = new Set<Promise<void>>();
  /** Leaves held for the resume window per `eventId/participantId` (sockets lost abruptly); run at once on shutdown. */
  readonly #held = new Map<string, Set<() => Promise<void>>>();
  #ping: NodeJS.Timeout | undefined;
  #closing = false;

  private constructor(
    readonly ctx: AppContext,
    readonly fanout: Fanout,
    store: PresenceStore,
    databaseUrl: string,
    timing: PresenceTiming,
  ) {
    this.presence = new LivePresence(ctx, store, fanout, timing);
    this.questions = new QuestionWrites(ctx, (eventId, message) =>
      fanout.publish({ eventId, target: { to: 'all' }, message }),
    );
    this.tables = new LiveTables(ctx.pool, this.presence);
    this.snapshots = new JoinSnapshots(ctx.pool);
    this.resumes = new LiveResumes(fanout, ctx.gatewayTokens);
    this.seqs = new SeqReads((eventId) => fanout.lastSeq(eventId));
    this.audience = new LiveAudience(
      {
        counts: (eventId) => this.presence.counts(eventId),
        events: () => this.#byEvent.keys(),
        local: (eventId) => this.local(eventId),
        busy: () => ctx.foreground.busy(),
      },
      ctx.logger,
      timing.audienceMs,
    );
    this.phaseChanges = new PhaseChanges(this, databaseUrl, (id) => this.#events.forget(id));
  }

  static async start(ctx: AppContext, databaseUrl: string, options: LiveOptions = {}): Promise<LiveGateway> {
    const timing = options.presence ?? defaultPresenceTiming;
    // Presence entries are per process: a restarted process starts afresh, its old entries expire.
    const processId = randomUUID();
    const redisUrl = ctx.config.redisUrl;
    // Redis keys and channels are per deployment, i.e. per database, so deployments can share a Redis.
    const { rows } = await ctx.pool.query<{ db: string }>('select current_database() as db');
    const namespace = rows[0]!.db;
    let store: PresenceStore;
    if (redisUrl) {
      const redisStore = new RedisPresenceStore(redisUrl, processId, timing, ctx.logger, namespace);
      await redisStore.start();
      store = redisStore;
    } else store = new PgPresenceStore(ctx.pool, processId, timing);
    const limits = ctx.config.liveHistory;
    const fanout = timedFanout(
      redisUrl
        ? new RedisFanout(redisUrl, ctx.logger, namespace, limits)
        : new PgFanout(databaseUrl, ctx.pool, ctx.logger, limits),
    );
    const gateway = new LiveGateway(ctx, fanout, store, databaseUrl, timing);
    await fanout.start((envelope) => gateway.#deliver(envelope));
    await gateway.phaseChanges.start();
    gateway.presence.start();
    gateway.audience.start();
    gateway.#ping = setInterval(() => void pingAll(gateway.#allSockets()), pingIntervalMs);
    gateway.#ping.unref();
    gateway.#freshen = setInterval(() => gateway.#events.keepFresh(gateway.#largeEvents()), eventCacheMs / 2);
    gateway.#freshen.unref();
    return gateway;
  }

  attach(server: Server): void {
    // Not emitted with noServer today; kept so a future ws version cannot crash the process with it.
    this.#wss.on('error', (err) => this.ctx.logger.error({ err }, 'live gateway server error'));
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Node hands the raw socket over without an 'error' listener: a client resetting the
      // connection while its token is checked would otherwise be an uncaught exception.
      socket.on('error', (err) => this.ctx.logger.debug({ err }, 'live upgrade socket error'));
      void this.#upgrade(req, socket, head).catch((err: unknown) => {
        this.ctx.logger.error({ err }, 'live upgrade failed');
        socket.destroy();
      });
    });
  }

  event(eventId: string): Promise<LiveEvent | null> {
    return this.#events.get(eventId);
  }

  /** Events with a large audience on this process (their state is kept fresh in the background). */
  *#largeEvents(): Iterable<string> {
    for (const [eventId, sockets] of this.#byEvent) if (sockets.size >= largeAudience) yield eventId;
  }

  local(eventId: string): LiveConnection[] {
    return [...(this.#byEvent.get(eventId) ?? [])];
  }

  #allSockets(): LiveConnection[] {
    return [...this.#byEvent.values()].flatMap((set) => [...set]);
  }

  async #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (url.pathname !== livePath)
      return refuse(socket, 404, 'not_found', `No WebSocket endpoint at ${url.pathname}`, this.ctx);
    if (this.#closing) return refuse(socket, 503, 'unavailable', 'The server is shutting down', this.ctx);
    // A crowd joining at once: webhook deliveries (their participant.joined among them) make room.
    this.ctx.foreground.note();
    const token = url.searchParams.get('token');
    let claims: GatewayClaims;
    try {
      if (!token) throw new InvalidGatewayToken('missing token');
      claims = await this.ctx.gatewayTokens.verify(token);
    } catch (err) {
      if (!(err instanceof InvalidGatewayToken)) this.ctx.logger.error({ err }, 'gateway token check failed');
      return refuse(
        socket,
        401,
        'unauthorized',
        'A valid, unexpired gateway token is required (?token=)',
        this.ctx,
      );
    }
    const event = await this.event(claims.eventId).catch(() => null);
    if (!event) return refuse(socket, 404, 'not_found', 'Event not found', this.ctx);
    const resume = resumeRequest(url);
    // The 101 and the first messages in one write: a syscall each is much of a join's cost.
    holdUntilTurnEnds(socket);
    this.#wss.handleUpgrade(req, socket, head, (ws) => void this.#open(ws, socket, claims, event, resume));
  }

  async #open(
    ws: WebSocket,
    socket: Duplex,
    claims: GatewayClaims,
    event: LiveEvent,
    resume: ResumeRequest | undefined,
  ): Promise<void> {
    const conn = new LiveConnection(ws, claims, event.workspaceId, roleIn(event, claims.storedRole), socket);
    ws.on('pong', () => {
      conn.alive = true;
    });
    // A frame over maxPayload, a protocol violation or a reset: ws has already closed the socket
    // (1009 for an oversized frame, 1002 for a bad frame); only this socket ends.
    ws.on('error', (err) => {
      this.ctx.logger.info(
        { err, eventId: event.id, participantId: conn.participantId },
        'live socket closed on a client error',
      );
    });
    if (event.status === 'ended') {
      conn.release();
      conn.send({ type: 'error', code: 'invalid_state', detail: 'The event has ended' });
      conn.close(closeCodes.eventNotLive, 'event ended');
      return;
    }
    const set = this.#byEvent.get(event.id) ?? new Set<LiveConnection>();
    this.#byEvent.set(event.id, set);
    set.add(conn);
    liveSockets.inc();
    const ready = traced(
      'live.join',
      { 'gathercast.event.id': event.id, 'gathercast.live.role': conn.role },
      () => welcomeConnection(this, conn, event, { resume }),
    ).catch(async (err: unknown) => {
      // The event may have ended or been deleted while the socket was being set up.
      const now = await loadLiveEvent(this.ctx.pool, event.id).catch(() => undefined);
      if (now === null || now?.status === 'ended') {
        conn.send({ type: 'event.ended' });
        conn.close(closeCodes.eventEnded, 'event ended');
        return;
      }
      this.ctx.logger.error({ err }, 'live connection setup failed');
      conn.close(1011, 'setup failed');
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
      chain = chain.then(() => dispatch(this, conn, raw, allowed)).finally(() => queued--);
    });
    ws.on('close', (code) => {
      conn.closed = true;
      // No close frame (network loss, a killed peer, an unresponsive socket): the client may resume.
      conn.lostAbruptly = code === 1006;
      liveSockets.dec();
      set.delete(conn);
      if (!set.size && this.#byEvent.get(event.id) === set) {
        this.#byEvent.delete(event.id);
        this.#events.forget(event.id);
        this.audience.forget(event.id);
        this.snapshots.forget(event.id);
        this.seqs.forget(event.id);
      }
      const leaving = chain.then(() => this.#gone(conn));
      this.#leaving.add(leaving);
      void leaving.then(() => this.#leaving.delete(leaving));
    });
  }

  /**
   * After a socket closes: leave presence (participant.left on the last one anywhere), or the lobby.
   * A socket lost without a close frame leaves only after the resume window, so a resume (here or on
   * another process) finds the participant still present: no left/joined pair, no presence churn.
   */
  async #gone(conn: LiveConnection): Promise<void> {
    if (conn.joined && conn.lostAbruptly && !this.#closing) return this.#holdLeave(conn);
    try {
      if (conn.joined) await this.presence.leave(conn.workspaceId, conn.eventId, conn.participantId);
      else if (conn.lobby && !this.local(conn.eventId).some((c) => c.participantId === conn.participantId))
        await leaveLobby(this.ctx.pool, conn.eventId, conn.participantId);
    } catch (err) {
      this.ctx.logger.warn({ err }, 'live presence leave failed');
    }
  }

  #holdLeave(conn: LiveConnection): void {
    const key = `${conn.eventId}/${conn.participantId}`;
    const held = this.#held.get(key) ?? new Set();
    this.#held.set(key, held);
    const leave = () => {
      held.delete(leave);
      if (!held.size && this.#held.get(key) === held) this.#held.delete(key);
      clearTimeout(timer);
      return this.presence
        .leave(conn.workspaceId, conn.eventId, conn.participantId)
        .catch((err: unknown) => this.ctx.logger.warn({ err }, 'live presence leave failed'));
    };
    const timer = setTimeout(leave, this.ctx.config.liveHistory.windowMs);
    timer.unref();
    held.add(leave);
  }

  /** The participants resumed (here or elsewhere) and count as present there: their held leaves go now. */
  #resumed({ eventId, target, participants }: Envelope): void {
    const ids = participants ?? (target.to === 'participant' ? [target.participantId] : []);
    for (const id of ids) for (const leave of this.#held.get(`${eventId}/${id}`) ?? []) void leave();
  }

  /** Called with every envelope any process published. */
  #deliver(envelope: Envelope): void {
    const message = envelope.message && { ...envelope.message, seq: envelope.seq };
    if (envelope.seq !== undefined) this.seqs.delivered(envelope.eventId, envelope.seq);
    // A resume concerns held leaves only, not the sockets: no walk over the event's connections.
    if (envelope.action === 'resumed') {
      this.#resumed(envelope);
      return;
    }
    const sockets = this.#byEvent.get(envelope.eventId) ?? new Set<LiveConnection>();
    // A message to a large audience is a burst too (a socket write costs about a 25th of a join).
    this.ctx.foreground.note(sockets.size / socketsPerJoinCost);
    for (const conn of sockets) {
      if (!conn.receives(envelope.target)) continue;
      if (message) conn.send(message);
      if (envelope.action === 'lobby.admit' && conn.lobby) void this.#admit(conn);
      if (envelope.action === 'lobby.deny' && conn.lobby) {
        conn.lobby = false;
        conn.send({ type: 'lobby.denied' });
        conn.close(closeCodes.lobbyDenied, 'denied by a host');
      }
    }
  }

  async #admit(conn: LiveConnection): Promise<void> {
    try {
      const event = await this.event(conn.eventId);
      if (!event) return;
      await welcomeConnection(this, conn, event, { admitted: true });
    } catch (err) {
      this.ctx.logger.error({ err }, 'lobby admission failed');
    }
  }

  /** A walk-in waits: hosts everywhere hear of it. */
  async lobbyWait(conn: LiveConnection): Promise<void> {
    const info = conn.presenceInfo();
    await enterLobby(this.ctx.pool, conn.eventId, info);
    await this.fanout.publish({
      eventId: conn.eventId,
      target: { to: 'moderators' },
      message: waitingMessage(info),
    });
  }

  /** Sends a message straight to one local connection set (used by phase changes). */
  sendLocal(eventId: string, message: LiveServerMessage): void {
    for (const conn of this.local(eventId)) conn.send(message);
  }

  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#ping);
    clearInterval(this.#freshen);
    this.audience.stop();
    const closed = this.#allSockets().map(
      (conn) =>
        new Promise<void>((resolve) => {
          conn.ws.once('close', () => resolve());
          conn.close(closeCodes.goingAway, 'server shutting down');
          setTimeout(() => {
            conn.ws.terminate();
            resolve();
          }, 2000).unref();
        }),
    );
    await Promise.all(closed);
    await Promise.all([...this.#leaving]);
    await Promise.all([...this.#held.values()].flatMap((held) => [...held].map((leave) => leave())));
    await this.phaseChanges.stop();
    await this.presence.stop();
    await this.fanout.stop();
    this.#wss.close();
  }
}

function refuse(socket: Duplex, status: number, code: string, detail: string, ctx: AppContext): void {
  const body = JSON.stringify({ type: `${ctx.config.errorsBaseUrl}/${code}`, code, detail });
  const reason = { 401: 'Unauthorized', 404: 'Not Found', 503: 'Service Unavailable' }[status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
