import {
  type LiveClientMessage,
  type LiveServerMessage,
  liveClientMessageSchema,
  liveServerMessageSchema,
} from '@gathercast/contract';

export type LiveServerMessageOf<T extends LiveServerMessage['type']> = Extract<
  LiveServerMessage,
  { type: T }
>;
export type LiveWelcome = LiveServerMessageOf<'welcome'>;

/** The part of the WHATWG WebSocket this client uses (browsers, Deno, Node 22+, or the `ws` package). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface LiveConnectOptions {
  /**
   * The WebSocket implementation; defaults to `globalThis.WebSocket`. On Node 20 pass the `ws`
   * package's `WebSocket`.
   */
  WebSocket?: WebSocketConstructor;
  /** How long to wait for the `welcome` message (default 10 s). */
  timeoutMs?: number;
}

/** The gateway closed the socket, or refused it before `welcome`. */
export class LiveConnectionClosed extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`live gateway closed the connection (${code}${reason ? `: ${reason}` : ''})`);
    this.name = 'LiveConnectionClosed';
  }
}

type Listener = (message: LiveServerMessage) => void;

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
 */
export class LiveConnection {
  private readonly listeners = new Map<string, Set<Listener>>();
  private closeListeners = new Set<(closed: LiveConnectionClosed) => void>();
  private closedWith: LiveConnectionClosed | undefined;

  private constructor(
    private readonly socket: WebSocketLike,
    /** The first server message: identity, narrowed role, event state, active phase, cast, media grant. */
    readonly welcome: LiveWelcome,
  ) {}

  static open(url: string, options: LiveConnectOptions = {}): Promise<LiveConnection> {
    const Socket =
      options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ?? undefined;
    if (!Socket) {
      return Promise.reject(
        new Error(
          'No WebSocket implementation: pass { WebSocket } (for example the ws package) on this runtime',
        ),
      );
    }
    const socket = new Socket(url);
    return new Promise((resolve, reject) => {
      let connection: LiveConnection | undefined;
      const timer = setTimeout(() => {
        socket.close(1000, 'no welcome');
        reject(new LiveConnectionClosed(1006, 'no welcome message in time'));
      }, options.timeoutMs ?? 10_000);
      socket.onmessage = (event) => {
        const message = parseServerMessage(event.data);
        if (!message) return;
        if (!connection) {
          if (message.type === 'welcome') {
            clearTimeout(timer);
            connection = new LiveConnection(socket, message);
            resolve(connection);
          } else if (message.type === 'error') {
            clearTimeout(timer);
            reject(new LiveConnectionClosed(1008, `${message.code}: ${message.detail}`));
          }
          return;
        }
        connection.dispatch(message);
      };
      socket.onclose = (event) => {
        clearTimeout(timer);
        const closed = new LiveConnectionClosed(event.code, event.reason);
        if (connection) connection.closed(closed);
        else reject(closed);
      };
      socket.onerror = () => {
        // onclose follows with the code and reason.
      };
    });
  }

  /** Sends a client message; throws if it does not match the contract. */
  send(message: LiveClientMessage): void {
    if (this.closedWith) throw this.closedWith;
    this.socket.send(JSON.stringify(liveClientMessageSchema.parse(message)));
  }

  /** Calls `listener` for every message of that type; returns the unsubscribe function. */
  on<T extends LiveServerMessage['type']>(
    type: T,
    listener: (message: LiveServerMessageOf<T>) => void,
  ): () => void {
    const set = this.listeners.get(type) ?? new Set<Listener>();
    this.listeners.set(type, set);
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  /** The next message of that type (optionally one that `match` accepts). */
  next<T extends LiveServerMessage['type']>(
    type: T,
    options: { timeoutMs?: number; match?: (message: LiveServerMessageOf<T>) => boolean } = {},
  ): Promise<LiveServerMessageOf<T>> {
    return new Promise((resolve, reject) => {
      if (this.closedWith) return reject(this.closedWith);
      const done = () => {
        clearTimeout(timer);
        off();
        this.closeListeners.delete(onClose);
      };
      const off = this.on(type, (message) => {
        if (options.match && !options.match(message)) return;
        done();
        resolve(message);
      });
      const onClose = (closed: LiveConnectionClosed) => {
        done();
        reject(closed);
      };
      this.closeListeners.add(onClose);
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${type} message within ${options.timeoutMs ?? 10_000} ms`));
      }, options.timeoutMs ?? 10_000);
    });
  }

  /** Resolves once the gateway has closed the socket (for example after `event.ended`). */
  closedPromise(): Promise<LiveConnectionClosed> {
    if (this.closedWith) return Promise.resolve(this.closedWith);
    return new Promise((resolve) => this.closeListeners.add(resolve));
  }

  close(code = 1000, reason = ''): Promise<LiveConnectionClosed> {
    const closed = this.closedPromise();
    if (!this.closedWith) this.socket.close(code, reason);
    return closed;
  }

  private dispatch(message: LiveServerMessage) {
    for (const listener of this.listeners.get(message.type) ?? []) listener(message);
  }

  private closed(closed: LiveConnectionClosed) {
    this.closedWith = closed;
    for (const listener of this.closeListeners) listener(closed);
    this.closeListeners.clear();
  }
}

function parseServerMessage(data: unknown): LiveServerMessage | undefined {
  if (typeof data !== 'string') {
    if (data instanceof ArrayBuffer) data = new TextDecoder().decode(data);
    else if (ArrayBuffer.isView(data)) data = new TextDecoder().decode(data);
    else return undefined;
  }
  try {
    const parsed = liveServerMessageSchema.safeParse(JSON.parse(data as string));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
