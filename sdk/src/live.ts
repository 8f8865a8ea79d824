import { liveClientMessageSchema, liveServerMessageTypeNames } from '@gathercast/contract';
import type { LiveClientMessage, LiveServerMessage } from './generated/api';
import {
  Backoff,
  Heartbeat,
  isRefusal,
  mayReconnect,
  reconnectUrl,
  tokenExpired,
  welcomeTimeoutOf,
} from './live-reconnect';
import {
  type LiveConnectOptions,
  LiveConnectionClosed,
  type LiveEventName as Name,
  type LivePayload,
  type LiveServerMessageOf,
  type LiveUrl,
  type LiveWelcome,
  type WebSocketConstructor,
  type WebSocketLike,
} from './live-types';

export * from './live-types';

type Listener = (payload: unknown) => void;

/** Client messages kept while reconnecting, sent after the new `welcome`. */
const maxOutbox = 100;

/**
 * A typed connection to the live gateway (`GET /v1/live?token=`). Open it with the `url` of a gateway
 * token (`client.gateway.token({ body: { eventId } })`):
 *
 *   const { url } = await gc.gateway.token({ body: { eventId } });
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
  private readonly listeners = new Map<string, Set<Listener>>();
  private closeListeners = new Set<(closed: LiveConnectionClosed) => void>();
  private closedWith: LiveConnectionClosed | undefined;
  private socket: WebSocketLike | undefined;
  private current!: LiveWelcome;
  /** The highest seq handed on: a replayed or repeated message at or below it is dropped. */
  private lastSeq = 0;
  private readonly outbox: string[] = [];
  private stopped = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private readonly backoff: Backoff;
  private lostAt = 0;
  /** Set while a reconnect is under way: whether it asked to resume, and from where. */
  private reconnecting: { asked: boolean; after: number } | undefined;
  /** Messages that arrived with the first `welcome`, handed on once `open()`'s caller could subscribe. */
  private holding: LiveServerMessage[] | undefined = [];
  /** The `resume_failed` error after a reset is reported as `reset`, not as an `error` message. */
  private swallowResumeFailed = false;
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
    setTimeout(() => {
      const held = connection.holding ?? [];
      connection.holding = undefined;
      for (const message of held) connection.handOn(message);
    }, 0);
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
    const set = this.listeners.get(type) ?? new Set<Listener>();
    this.listeners.set(type, set);
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
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
  close(code = 1000, reason = ''): Promise<LiveConnectionClosed> {
    const closed = this.closedPromise();
    this.stopped = true;
    clearTimeout(this.retry);
    if (this.socket) this.socket.close(code, reason);
    else this.finish(new LiveConnectionClosed(code, reason || 'closed by the client'));
    return closed;
  }

  /**
   * Opens one socket; resolves at its `welcome`, rejects if it closes (or says `error`) before, or when
   * no welcome came within `timeoutMs`.
   */
  private dial(url: string, timeoutMs: number): Promise<void> {
    const socket = new this.Socket(url);
    return new Promise((resolve, reject) => {
      let welcomed = false;
      const timer = setTimeout(() => {
        // Given up: a welcome that still comes on this socket (a slow gateway) is not this connection's
        // any more, or a `resumed` would be reported for a socket that is closing while the next
        // attempt is already under way.
        socket.onmessage = null;
        socket.onclose = null;
        socket.close(1000, 'no welcome');
        reject(new LiveConnectionClosed(1006, 'no welcome message in time'));
      }, timeoutMs);
      socket.onmessage = (event) => {
        if (welcomed) this.heartbeat.heardFrom();
        const message = parseServerMessage(event.data);
        if (!message) return;
        if (welcomed) return this.received(message);
        if (message.type === 'welcome') {
          clearTimeout(timer);
          welcomed = true;
          if (this.stopped) {
            socket.close(1000, '');
            return reject(new LiveConnectionClosed(1000, 'closed by the client'));
          }
          this.socket = socket;
          this.heartbeat.watch(socket);
          this.welcomed(message);
          resolve();
        } else if (message.type === 'error') {
          clearTimeout(timer);
          reject(new LiveConnectionClosed(1008, `${message.code}: ${message.detail}`));
        }
      };
      socket.onclose = (event) => {
        clearTimeout(timer);
        if (welcomed) this.dropped(socket, event.code, event.reason);
        else reject(new LiveConnectionClosed(event.code, event.reason));
      };
      socket.onerror = () => {
        // onclose follows with the code and reason.
      };
    });
  }

  private welcomed(welcome: LiveWelcome): void {
    const before = this.current;
    this.current = welcome;
    const was = this.reconnecting;
    this.reconnecting = undefined;
    this.backoff.reset();
    if (was) {
      const downtimeMs = Date.now() - this.lostAt;
      if (welcome.resumed) this.emit('resumed', { ...welcome.resumed, downtimeMs });
      else {
        this.lastSeq = welcome.lastSeq;
        this.swallowResumeFailed = was.asked;
        const reason = was.asked ? 'resume_failed' : 'window_elapsed';
        this.emit('reset', { reason, after: was.after, lastSeq: welcome.lastSeq, downtimeMs });
      }
      // `phase.changed` goes to each socket with its own grant and is not replayed: the new welcome
      // holds the current phase, so a change made while away still reaches the listeners, once.
      const phaseId = (w: LiveWelcome) => w.activePhase?.id ?? null;
      if (before.event.status !== welcome.event.status || phaseId(before) !== phaseId(welcome))
        this.received({
          type: 'phase.changed',
          eventStatus: welcome.event.status,
          activePhaseId: phaseId(welcome),
          media: welcome.media,
        });
    } else this.lastSeq = welcome.lastSeq;
    for (const data of this.outbox.splice(0)) this.socket?.send(data);
  }

  private received(message: LiveServerMessage): void {
    if (message.seq !== undefined) {
      if (message.seq <= this.lastSeq) return;
      this.lastSeq = message.seq;
    }
    if (this.swallowResumeFailed && message.type === 'error' && message.code === 'resume_failed') {
      this.swallowResumeFailed = false;
      return;
    }
    if (this.holding) this.holding.push(message);
    else this.handOn(message);
  }

  private handOn(message: LiveServerMessage): void {
    this.emit(message.type, message);
    this.emit('message', message);
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
    const { url, asked } = reconnectUrl(base, this.current.resume, this.lastSeq, Date.now() - this.lostAt);
    this.reconnecting = { asked, after: this.lastSeq };
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
    for (const listener of this.listeners.get(type) ?? []) listener(payload);
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

const utf8 = new TextDecoder();
/**
 * The gateway's messages are built from the same contract as this SDK (and its tests check every one
 * against it), so a message is not validated field by field: that cost 12 µs a message, five times the
 * JSON parse, which a client following a busy event pays on every chat line. Only its type is checked:
 * a type this SDK version does not know (a newer gateway's) is ignored.
 */
const knownTypes: ReadonlySet<string> = new Set(liveServerMessageTypeNames);

function parseServerMessage(data: unknown): LiveServerMessage | undefined {
  if (typeof data !== 'string') {
    if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) data = utf8.decode(data);
    else return undefined;
  }
  try {
    const message = JSON.parse(data as string) as { type?: unknown } | null;
    return typeof message?.type === 'string' && knownTypes.has(message.type)
      ? (message as LiveServerMessage)
      : undefined;
  } catch {
    return undefined;
  }
}
