import { liveCloseCodes, liveCloseCodeTable } from '@gathercast/contract';
import type { WebSocketLike } from './live-types';

/**
 * The live connection's policy for a socket that is lost: which closes end it for good, how long to
 * wait before dialling again, how to ask for a resume, and how to notice a socket that died silently.
 */

/** Backoff between reconnects (see `LiveConnectOptions.reconnect`). */
export interface ReconnectOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
  /**
   * How long a reconnect attempt waits for its `welcome` (default 30 000). Longer than the first
   * open's `timeoutMs` on purpose: when a process dies, the others take in its whole audience at
   * once and answer slowly, and an attempt given up on comes back as one more in that crowd.
   */
  welcomeTimeoutMs?: number;
}

/** Silence detection on an open socket (see `LiveConnectOptions.heartbeat`). */
export interface HeartbeatOptions {
  intervalMs?: number;
  timeoutMs?: number;
}

const codesWhere = (flag: 'final' | 'endsReconnect') =>
  new Set<number>(Object.values(liveCloseCodeTable).flatMap((c) => (c[flag] ? [c.code] : [])));
/**
 * Close codes after which reconnecting cannot help (the event ended, a host denied entry, a normal
 * close, too many sockets open for this participant or address, a removal or a ban). 4010 (the
 * holder's role changed) is not one: the reconnect asks the `url` function again, for a new gateway token.
 */
const finalCodes = codesWhere('final');
/** Answers to a reconnect that end it: an `error` before `welcome` (1008, the event ended) or a final code. */
const refusalCodes = codesWhere('endsReconnect');

/** Whether a socket that closed with `code` is worth dialling again. */
export function mayReconnect(reconnect: false | ReconnectOptions | undefined, code: number): boolean {
  return reconnect !== false && !finalCodes.has(code);
}

/** How long a reconnect attempt waits for its `welcome`. */
export function welcomeTimeoutOf(reconnect: false | ReconnectOptions | undefined): number {
  return (reconnect ? reconnect.welcomeTimeoutMs : undefined) ?? 30_000;
}

/** Whether a close code met while reconnecting is the gateway's answer, which ends the connection. */
export function isRefusal(code: number): boolean {
  return refusalCodes.has(code);
}

/**
 * Exponential backoff: from `initialDelayMs` (default 250) doubling up to `maxDelayMs` (default
 * 10 000), each delay jittered down by up to half, so that thousands of viewers of a crashed process
 * do not all come back at the same moment.
 */
export class Backoff {
  private attempt = 0;

  constructor(private readonly options: ReconnectOptions = {}) {}

  /** The delay before the next attempt; each call counts one attempt. */
  nextDelayMs(): number {
    const ceiling = Math.min(
      this.options.maxDelayMs ?? 10_000,
      (this.options.initialDelayMs ?? 250) * 2 ** this.attempt,
    );
    this.attempt++;
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  /** A connection was made: the next loss starts again from the initial delay. */
  reset(): void {
    this.attempt = 0;
  }
}

/**
 * The URL of a reconnect: within the resume window it asks the gateway to replay what came after
 * `after`; past it, a plain join (the caller reports the gap as a reset).
 */
export function reconnectUrl(
  base: string,
  resume: { secret: string; windowMs: number },
  after: number,
  downtimeMs: number,
): { url: string; asked: boolean } {
  const asked = downtimeMs < resume.windowMs;
  const target = new URL(base);
  if (asked) {
    target.searchParams.set('resume', resume.secret);
    target.searchParams.set('after', String(after));
  }
  return { url: target.toString(), asked };
}

/** Whether the `token` parameter of a gateway URL is a JWT past its `exp` (unverified: only a hint). */
export function tokenExpired(url: string): boolean {
  try {
    const token = new URL(url).searchParams.get('token') ?? '';
    const payload = token.split('.')[1] ?? '';
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    return typeof json.exp === 'number' && json.exp * 1000 <= Date.now();
  } catch {
    return false;
  }
}

/**
 * Listens for silence on one socket at a time: quiet for `intervalMs` (default 10 000), a `ping`;
 * still quiet for `timeoutMs` (default 5 000), the socket is given up (closed without waiting for a
 * close handshake that may never come) and `onSilent` is called with it.
 */
export class Heartbeat {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private socket: WebSocketLike | undefined;
  /** A message arrived on the watched socket since the heartbeat last looked. */
  private heard = false;

  constructor(
    private readonly options: false | HeartbeatOptions | undefined,
    private readonly onSilent: (socket: WebSocketLike) => void,
  ) {}

  /** Something arrived on the watched socket. */
  heardFrom(): void {
    this.heard = true;
  }

  watch(socket: WebSocketLike): void {
    this.stop();
    if (this.options === false) return;
    const intervalMs = this.options?.intervalMs ?? 10_000;
    const timeoutMs = this.options?.timeoutMs ?? 5_000;
    this.socket = socket;
    this.heard = false;
    let pinged = false;
    const check = () => {
      if (socket !== this.socket) return;
      if (this.heard) {
        this.heard = false;
        pinged = false;
        this.timer = setTimeout(check, intervalMs);
      } else if (!pinged) {
        pinged = true;
        try {
          socket.send(JSON.stringify({ type: 'ping' }));
        } catch {
          // A socket already closing: the next check gives it up.
        }
        this.timer = setTimeout(check, timeoutMs);
      } else {
        this.socket = undefined;
        socket.onclose = null;
        socket.onmessage = null;
        // The ws package can drop the connection at once; a WHATWG socket can only start a close.
        const terminate = (socket as { terminate?: () => void }).terminate;
        if (terminate) terminate.call(socket);
        else socket.close(liveCloseCodes.normal, 'no answer to ping');
        this.onSilent(socket);
      }
    };
    this.timer = setTimeout(check, intervalMs);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.socket = undefined;
  }
}
