import { liveClientMessageSchema, liveCloseCodes } from '@gathercast/contract';
import type { LiveClientMessage, LiveServerMessage } from './generated/api';
import { dialSocket } from './live-dial';
import {
  Backoff,
  Heartbeat,
  isRefusal,
  mayReconnect,
  reconnectUrl,
  tokenExpired,
  welcomeTimeoutOf,
} from './live-reconnect';
import { LiveMessageStream } from './live-stream';
import {
  LiveConnectionClosed,
  type LiveConnectOptions,
  type LivePayload,
  type LiveServerMessageOf,
  type LiveUrl,
  type LiveWelcome,
  type LiveEventName as Name,
  type WebSocketConstructor,
  type WebSocketLike,
} from './live-types';

export * from './live-types';

/** Client messages kept while reconnecting, sent after the new `welcome`. */
const maxOutbox = 100;

/**
 * A typed connection to the live gateway (`GET /v1/live?token=`). Open it with the `url` of a gateway
 * token (`client.gateway.token({ eventId })`):
 *
 *   const { url } = await gc.gateway.token({ eventId });
 *   const live = await LiveConnection.open(url);
 *   live.on('question.created', (m) => console.log(m.question.text));
 *   live.send({ type: 'question.create', text: 'When are the breakouts?' });
 *
 * Messages are checked against the contract's schemas both ways: `send` throws on a message the gateway
 * would refuse, and a server message that does not parse is dropped rather than handed on mistyped.
 *
 * A dropped socket is reconnected with backoff and resumed: the gateway replays what was missed, so the
 * listeners see one stream, every message once and in order (`resumed`, or `reset` when the gap could
 * not be recovered). Gateway tokens live 5 minutes: pass a function as `url` that fetches a fresh one,
 * or reconnecting stops (`closedPromise()` settles) once the token has expired. `close()` stops it all.
 */
export class LiveConnection {
  /** What the listeners see: one stream over every socket, each message once and in order. */
  private readonly stream = new LiveMessageStream();
  private closeListeners = new Set<(closed: LiveConnectionClosed) => void>();
  private closedWith: LiveConnectionClosed | undefined;
  private socket: WebSocketLike | undefined;
  private current!: LiveWelcome;
  private readonly outbox: string[] = [];
  private stopped = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private readonly backoff: Backoff;
  private lostAt = 0;
  /** Set while a reconnect is under way: whether it asked to resume, and from where. */
  private reconnecting: { asked: boolean; after: number } | undefined;
  private requests = 0;
  private readonly heartbeat: Heartbeat;

  private constructor(
    private readonly url: LiveUrl,
    private readonly Socket: WebSocketConstructor,
    private readonly options: LiveConnectOptions,
  ) {
    this.backoff = new Backoff(options.reconnect || {});
    this.heartbeat = new Heartbeat(options.heartbeat, (socket) =>
      this.dropped(socket, 1006, 'no answer to ping'),
    );
  }

  /** The latest `welcome`: identity, narrowed role, event state, active phase, cast, media grant. */
  get welcome(): LiveWelcome {
    return this.current;
  }

  static async open(url: LiveUrl, options: LiveConnectOptions = {}): Promise<LiveConnection> {
    const Socket =
      options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ?? undefined;
    if (!Socket) {
      throw new Error(
        'No WebSocket implementation: pass { WebSocket } (for example the ws package) on this runtime',
      );
    }
    const connection = new LiveConnection(url, Socket, options);
    await connection.dial(typeof url === 'string' ? url : await url(), options.timeoutMs ?? 10_000);
    // The state snapshot arrives right behind the welcome: keep it for the listeners added after `await`.
    setTimeout(() => connection.stream.release(), 0);
    return connection;
  }

  /** Sends a client message; throws if it does not match the contract. While reconnecting it waits. */
  send(message: LiveClientMessage): void {
    if (this.closedWith) throw this.closedWith;
    const data = JSON.stringify(liveClientMessageSchema.parse(message));
    if (this.socket && this.socket.readyState === 1) {
      this.socket.send(data);
      return;
    }
    if (this.outbox.length >= maxOutbox)
      throw new Error('live connection is reconnecting; too many messages waiting');
    this.outbox.push(data);
  }

  /**
   * Calls `listener` for every server message of that type, or for a connection event (`message`,
   * `disconnected`, `resumed`, `reset`); returns the unsubscribe function.
   */
  on<T extends Name>(type: T, listener: (payload: LivePayload<T>) => void): () => void {
    return this.stream.on(type, listener);
  }

  /** The next message (or connection event) of that type, optionally one that `match` accepts. */
  next<T extends Name>(
    type: T,
    options: { timeoutMs?: number; match?: (payload: LivePayload<T>) => boolean } = {},
  ): Promise<LivePayload<T>> {
    return new Promise((resolve, reject) => {
      if (this.closedWith) return reject(this.closedWith);
      const done = () => {
        clearTimeout(timer);
        off();
        this.closeListeners.delete(onClose);
      };
      const off = this.on(type, (payload) => {
        if (options.match && !options.match(payload)) return;
        done();
        resolve(payload);
      });
      const onClose = (closed: LiveConnectionClosed) => {
        done();
        reject(closed);
      };
      this.closeListeners.add(onClose);
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${type} within ${options.timeoutMs ?? 10_000} ms`));
      }, options.timeoutMs ?? 10_000);
    });
  }

  /**
   * Moderators: one page of who is present (viewers of a broadcast are counted in `audience`
   * messages, not announced one by one). Pass the previous page's `nextCursor` for the next page.
   */
  async listAudience(
    options: { cursor?: string; limit?: number; timeoutMs?: number } = {},
  ): Promise<LiveServerMessageOf<'audience.page'>> {
    const requestId = `audience-${++this.requests}`;
    const page = this.next('audience.page', {
      timeoutMs: options.timeoutMs,
      match: (m) => m.requestId === requestId,
    });
    const refused = this.next('error', { timeoutMs: options.timeoutMs }).then(
      (e) => Promise.reject(new Error(`audience.list refused: ${e.code}: ${e.detail}`)),
      () => new Promise<never>(() => {}),
    );
    this.send({
      type: 'audience.list',
      requestId,
      ...(options.cursor ? { cursor: options.cursor } : {}),
      ...(options.limit ? { limit: options.limit } : {}),
    });
    return Promise.race([page, refused]);
  }

  /** Resolves once the connection is over for good: `close()`, a final close code, or reconnecting gave up. */
  closedPromise(): Promise<LiveConnectionClosed> {
    if (this.closedWith) return Promise.resolve(this.closedWith);
    return new Promise((resolve) => this.closeListeners.add(resolve));
  }

  /** Closes the socket and stops reconnecting. */
  close(code: number = liveCloseCodes.normal, reason = ''): Promise<LiveConnectionClosed> {
    const closed = this.closedPromise();
    this.stopped = true;
    clearTimeout(this.retry);
    if (this.socket) this.socket.close(code, reason);
    else this.finish(new LiveConnectionClosed(code, reason || 'closed by the client'));
    return closed;
  }

  /** Opens one socket; resolves at its `welcome` (see dialSocket). */
  private dial(url: string, timeoutMs: number): Promise<void> {
    return dialSocket(this.Socket, url, timeoutMs, {
      welcomed: (socket, welcome) => {
        if (this.stopped) return false;
        this.socket = socket;
        this.heartbeat.watch(socket);
        this.welcomed(welcome);
        return true;
      },
      heard: () => this.heartbeat.heardFrom(),
      message: (message) => this.received(message),
      dropped: (socket, code, reason) => this.dropped(socket, code, reason),
    });
  }

  private welcomed(welcome: LiveWelcome): void {
    const before = this.current;
    this.current = welcome;
    const was = this.reconnecting;
    this.reconnecting = undefined;
    this.backoff.reset();
    if (was) this.stream.reconnected(before, welcome, was, Date.now() - this.lostAt);
    else this.stream.lastSeq = welcome.lastSeq;
    for (const data of this.outbox.splice(0)) this.socket?.send(data);
  }

  private received(message: LiveServerMessage): void {
    if (!this.stream.advance(message)) return;
    // Admitted from the lobby: the session that starts now resumes with its own secret.
    if (message.type === 'lobby.admitted')
      this.current = { ...this.current, lobby: false, media: message.media, resume: message.resume };
    this.stream.accept(message);
  }

  private dropped(socket: WebSocketLike, code: number, reason: string): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    this.heartbeat.stop();
    if (this.stopped || !mayReconnect(this.options.reconnect, code)) {
      this.finish(new LiveConnectionClosed(code, reason));
      return;
    }
    this.lostAt = Date.now();
    this.emit('disconnected', { code, reason });
    this.schedule();
  }

  private schedule(): void {
    this.retry = setTimeout(() => void this.reconnect(), this.backoff.nextDelayMs());
  }

  private async reconnect(): Promise<void> {
    if (this.stopped) return;
    let base: string;
    try {
      base = typeof this.url === 'string' ? this.url : await this.url();
    } catch {
      return this.schedule();
    }
    if (typeof this.url === 'string' && tokenExpired(base))
      return this.finish(
        new LiveConnectionClosed(1006, 'the gateway token expired; pass a url function to reconnect'),
      );
    const lastSeq = this.stream.lastSeq;
    const { url, asked } = reconnectUrl(base, this.current.resume, lastSeq, Date.now() - this.lostAt);
    this.reconnecting = { asked, after: lastSeq };
    try {
      await this.dial(url, welcomeTimeoutOf(this.options.reconnect));
    } catch (err) {
      if (this.stopped) return;
      // An `error` before `welcome` (the event ended) is an answer, not a network problem.
      if (err instanceof LiveConnectionClosed && isRefusal(err.code)) return this.finish(err);
      this.schedule();
    }
  }

  private emit(type: string, payload: unknown): void {
    this.stream.emit(type, payload);
  }

  private finish(closed: LiveConnectionClosed): void {
    if (this.closedWith) return;
    this.stopped = true;
    clearTimeout(this.retry);
    this.heartbeat.stop();
    this.closedWith = closed;
    for (const listener of this.closeListeners) listener(closed);
    this.closeListeners.clear();
  }
}
