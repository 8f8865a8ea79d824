import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { GatewayTokens } from '../gateway/tokens';
import type { AppContext } from '../lib/context';
import { LiveAudience } from './audience-counts';
import { liveBackends } from './backends/start';
import type { LiveConnection } from './connection';
import { scrubBacklog } from './control/chat-deletion';
import { ClientAddresses } from './control/client-addresses';
import type { SlowModeStore } from './control/slow-mode';
import { ChatLog } from './crowd/chat-log';
import { LiveCrowd } from './crowd/crowd';
import { type CrowdOptions, crowdPolicy } from './crowd/policy';
import { ReactionTotals } from './crowd/reaction-totals';
import { deliver } from './delivery';
import type { LiveDeps } from './deps';
import { eventCacheMs, LiveEventCache, largeAudience } from './event-cache';
import { type LiveEvent, loadLiveEvent } from './event-state';
import type { Fanout } from './fanout';
import { JoinSnapshot, readJoinSnapshot } from './join-snapshot';
import { pingAll, pingIntervalMs } from './keep-alive';
import { enterLobby, waitingMessage } from './lobby';
import { moveAway, resumeGraceMs, untilDone } from './move-away';
import { PhaseChanges } from './phase-changes';
import { PollVotes } from './poll-votes';
import { pollMessages } from './polls';
import { LivePresence } from './presence';
import { defaultPresenceTiming, type PresenceStore, type PresenceTiming } from './presence-store';
import { QuestionWrites } from './question-writes';
import { LiveResumes } from './resume';
import { RoleChanges } from './role-changes';
import { LiveRooms } from './rooms';
import { SocketCaps } from './socket-caps';
import { openSocket } from './socket-life';
import { StreamPosition } from './stream-position';
import { LiveTables } from './tables';
import { upgrade } from './upgrade';

export { livePath } from './upgrade';

/** Largest client message accepted; bigger frames close the socket with 1009. */
const maxPayloadBytes = 16 * 1024;

export interface LiveOptions {
  presence?: PresenceTiming;
  /** When a large audience's activity is batched, and the clock it runs on (crowd/policy.ts). */
  crowd?: CrowdOptions;
}

/**
 * The live gateway: WebSockets on GET /v1/live?token=… beside the API. Each process keeps its own
 * sockets, in one room per event (room.ts, rooms.ts); envelopes (fan-out), presence and the event's
 * state are shared through PostgreSQL or, with REDIS_URL, Redis (backends/), so processes on one
 * database serve an event together. This file assembles the parts, starts them and shuts them down.
 */
export class LiveGateway implements LiveDeps {
  // Pings are answered by answerPings (keep-alive.ts), within a documented limit.
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: maxPayloadBytes, autoPong: false });
  readonly #events = new LiveEventCache((eventId) => loadLiveEvent(this.ctx.pool, eventId));
  readonly rooms: LiveRooms;
  readonly presence: LivePresence;
  readonly questions: QuestionWrites;
  readonly pollVotes: PollVotes;
  readonly crowd: LiveCrowd;
  readonly chatLog: ChatLog;
  readonly reactionTotals: ReactionTotals;
  readonly tables: LiveTables;
  readonly phaseChanges: PhaseChanges;
  readonly audience: LiveAudience;
  readonly resumes: LiveResumes;
  readonly roleChanges: RoleChanges;
  readonly #caps: SocketCaps;
  readonly addresses: ClientAddresses;
  /** Leaves of closed sockets under way (shutdown waits for them). */
  readonly leaving = new Set<Promise<void>>();
  #timers: NodeJS.Timeout[] = [];
  #closing = false;

  private constructor(
    readonly ctx: AppContext,
    /** Verifies gateway tokens at the upgrade and signs each session's resume secret. */
    readonly tokens: GatewayTokens,
    readonly fanout: Fanout,
    store: PresenceStore,
    readonly slowMode: SlowModeStore,
    databaseUrl: string,
    timing: PresenceTiming,
    crowd: CrowdOptions,
  ) {
    this.presence = new LivePresence(ctx, store, fanout, timing);
    this.addresses = new ClientAddresses(ctx.pool, ctx.logger);
    this.audience = new LiveAudience(
      {
        counts: (eventId) => this.presence.counts(eventId),
        rooms: () => this.rooms.occupied(),
        busy: () => ctx.foreground.busy(),
      },
      ctx.logger,
      timing.audienceMs,
    );
    this.rooms = new LiveRooms(
      {
        position: (eventId) => new StreamPosition(() => fanout.lastSeq(eventId)),
        snapshot: (eventId) => new JoinSnapshot(() => readJoinSnapshot(ctx.pool, eventId)),
        audience: (eventId) => this.audience.forRoom(eventId),
        deliveryFailed: (err) => ctx.logger.error({ err }, 'live delivery to a socket failed'),
      },
      (eventId) => this.#events.forget(eventId),
    );
    this.crowd = new LiveCrowd(
      {
        audience: (eventId) => this.rooms.get(eventId)?.sockets.size ?? 0,
        publish: (envelope) => fanout.publish(envelope),
        polls: (eventId, pollIds) => pollMessages(ctx.pool, eventId, pollIds),
        tallies: async (questionIds) => (await this.questions.tallies(questionIds)).map((t) => t.message),
        room: (eventId, open) => (open ? this.rooms.open(eventId) : this.rooms.get(eventId)),
        rooms: () => this.rooms.all(),
      },
      crowdPolicy(crowd),
      ctx.logger,
    );
    this.questions = new QuestionWrites(
      ctx,
      (eventId, message) => fanout.publish({ eventId, target: { to: 'all' }, message }),
      async (eventId, questionIds) => {
        if (this.crowd.large(eventId)) this.crowd.questionsVoted(eventId, questionIds);
        else await this.questions.publishTallies(questionIds);
      },
    );
    this.pollVotes = new PollVotes(ctx.pool, async (eventId, pollIds) => {
      if (this.crowd.large(eventId)) return this.crowd.pollVoted(eventId, pollIds);
      try {
        for (const message of await pollMessages(ctx.pool, eventId, pollIds))
          await fanout.publish({ eventId, target: { to: 'all' }, message });
      } catch (err) {
        ctx.logger.warn({ err, eventId }, 'live poll counts not sent');
      }
    });
    this.chatLog = new ChatLog(ctx.pool);
    this.reactionTotals = new ReactionTotals(ctx.pool);
    this.tables = new LiveTables(ctx.pool, this.presence);
    this.resumes = new LiveResumes(fanout, tokens, (eventId, envelopes) =>
      scrubBacklog(ctx.pool, eventId, envelopes),
    );
    this.phaseChanges = new PhaseChanges(this, databaseUrl, (id) => this.#events.forget(id));
    this.roleChanges = new RoleChanges(databaseUrl, ctx.pool, () => this.rooms.sockets(), ctx.logger);
    this.#caps = new SocketCaps(ctx.config.liveSockets);
  }

  static async start(
    ctx: AppContext,
    tokens: GatewayTokens,
    databaseUrl: string,
    options: LiveOptions = {},
  ): Promise<LiveGateway> {
    const timing = options.presence ?? defaultPresenceTiming;
    const { fanout, store, slowMode } = await liveBackends(ctx, databaseUrl, timing);
    const gateway = new LiveGateway(
      ctx,
      tokens,
      fanout,
      store,
      slowMode,
      databaseUrl,
      timing,
      options.crowd ?? {},
    );
    await fanout.start((envelope) => deliver(gateway, envelope));
    await gateway.phaseChanges.start();
    await gateway.roleChanges.start();
    gateway.presence.start();
    gateway.audience.start();
    gateway.#timers = [
      setInterval(() => void pingAll(gateway.rooms.sockets()), pingIntervalMs),
      setInterval(() => gateway.#events.keepFresh(gateway.#largeEvents()), eventCacheMs / 2),
    ];
    for (const timer of gateway.#timers) timer.unref();
    return gateway;
  }

  attach(server: Server): void {
    // Not emitted with noServer today; kept so a future ws version cannot crash the process with it.
    this.#wss.on('error', (err) => this.ctx.logger.error({ err }, 'live gateway server error'));
    const deps = {
      ctx: this.ctx,
      tokens: this.tokens,
      event: (id: string) => this.event(id),
      closing: () => this.#closing,
      wss: this.#wss,
      caps: this.#caps,
      open: openSocket.bind(null, this),
    };
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Node hands the raw socket over without an 'error' listener: a client resetting the
      // connection while its token is checked would otherwise be an uncaught exception.
      socket.on('error', (err) => this.ctx.logger.debug({ err }, 'live upgrade socket error'));
      void upgrade(deps, req, socket, head).catch((err: unknown) => {
        this.ctx.logger.error({ err }, 'live upgrade failed');
        socket.destroy();
      });
    });
  }

  closing(): boolean {
    return this.#closing;
  }

  event(eventId: string): Promise<LiveEvent | null> {
    return this.#events.get(eventId);
  }

  /** The event's state is read afresh on next use (room control changed it). */
  forgetEvent(eventId: string): void {
    this.#events.forget(eventId);
  }

  /** Events with a large audience on this process (their state is kept fresh in the background). */
  *#largeEvents(): Iterable<string> {
    for (const room of this.rooms.occupied()) if (room.sockets.size >= largeAudience) yield room.eventId;
  }

  local(eventId: string): LiveConnection[] {
    return this.rooms.local(eventId);
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

  /**
   * Moves every socket away (1012, in slices over `moveOverMs`), then lets the participants' presence
   * go: a moved participant's leave waits for its resume on another process (no left/joined pair),
   * at most `resumeGraceMs`; the rest leave then.
   */
  async close(options: { moveOverMs?: number } = {}): Promise<void> {
    this.#closing = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.audience.stop();
    await moveAway(this.rooms.sockets(), options.moveOverMs ?? 0);
    await Promise.all([...this.leaving]);
    await untilDone(() => this.rooms.holding === 0, resumeGraceMs);
    await Promise.all([...this.rooms.all()].map((room) => room.held.runAll()));
    await this.crowd.stop();
    await this.phaseChanges.stop();
    await this.roleChanges.stop();
    await this.presence.stop();
    await this.addresses.flush();
    await this.slowMode.close();
    await this.fanout.stop();
    this.#wss.close();
  }
}
