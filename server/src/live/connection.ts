import type { EventRole, LiveErrorCode, LiveServerMessage } from '@gathercast/contract';
import { WebSocket } from 'ws';
import type { GatewayClaims } from '../gateway/tokens';
import type { Target } from './fanout';
import type { PresenceInfo } from './presence-store';
import { TokenBucket } from './token-bucket';
import { type Corkable, coalesceWrites, holdUntilTurnEnds } from './write-coalescing';

/** A refusal sent back as an `error` message; the connection stays open. */
export class LiveError extends Error {
  constructor(
    readonly code: LiveErrorCode,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * A client that stops reading: once this much is waiting in the socket's send buffer, the socket is
 * dropped (a close frame would only queue behind the rest), so it cannot grow the process's memory.
 */
const maxBufferedBytes = 4 * 1024 * 1024;

/**
 * Each message object is serialized once, however many sockets it goes to: a broadcast (a fanned-out
 * envelope, an audience count) hands the same object to every socket, and serializing it per socket
 * costs O(N) JSON work per message on top of the O(N) writes.
 */
const encodings = new WeakMap<LiveServerMessage, Buffer>();
function encoded(message: LiveServerMessage): Buffer {
  let data = encodings.get(message);
  if (!data) {
    data = Buffer.from(JSON.stringify(message));
    encodings.set(message, data);
  }
  return data;
}

/** Hosts, speakers and moderators: they see every line of a large audience's chat. */
export const onStage = (role: EventRole) =>
  role === 'host' || role === 'speaker' || role === 'workspace_admin';
/**
 * All a lobby waiter is ever sent: it is not in the event, so nothing fanned out to the room (chat,
 * polls, announcements, banners, questions, presence, counts) reaches it, queued or live, until
 * `lobby.admitted`; only its own welcome, answers to what it sends, the host's decision and the
 * event's lifecycle (a phase change carries no media for it, the end closes it).
 */
const lobbyMessages: ReadonlySet<LiveServerMessage['type']> = new Set<LiveServerMessage['type']>([
  'welcome',
  'pong',
  'error',
  'lobby.admitted',
  'lobby.denied',
  'phase.changed',
  'event.ended',
]);

/** Burst and sustained rate of client messages per connection. */
const rateBurst = 20;
const ratePerSecond = 10;

/** One open socket: who holds it (from the gateway token) and where they are in the event. */
export class LiveConnection {
  /** The token's role read for the phase that governs now. */
  role: EventRole;
  /** Waiting in the meeting lobby: not in the event, may only ping. */
  lobby = false;
  /** Counted in presence (participant.joined fired for it or an earlier connection). */
  joined = false;
  /** Where the participant sits now (breakouts and rotations): phase, round and table. */
  seat: string | null = null;
  alive = true;
  closed = false;
  /** Closed without a close frame: the client may come back and resume. */
  lostAbruptly = false;
  /** Closed by a draining process (1012): the client resumes on another process, still present. */
  movedAway = false;
  /** When the socket was accepted: its participant.joined's time if it is the first anywhere (not a lobby waiter's). */
  readonly openedAt = new Date();
  /** When it closed: its participant.left's time, if it was the last (however long a resume hold took). */
  closedAt: Date | undefined;
  /** Where the upgrade came from (a ban may cover it). */
  clientAddress: string | undefined;
  /** The last event-stream seq this socket was sent (or started after): older ones are never sent again. */
  lastSeq = 0;
  /** Its roles changed (live/role-changes.ts): nothing more it sends is handled, and it is closing. */
  revoked = false;
  #queue: LiveServerMessage[] | null = [];
  readonly #rate = new TokenBucket(rateBurst, ratePerSecond);

  constructor(
    readonly ws: WebSocket,
    readonly claims: GatewayClaims,
    readonly workspaceId: string,
    role: EventRole,
    /** The upgraded TCP socket under `ws`: writes of one turn are coalesced on it. */
    private readonly socket: Corkable,
  ) {
    this.role = role;
  }

  get eventId(): string {
    return this.claims.eventId;
  }

  get participantId(): string {
    return this.claims.participantId;
  }

  identity() {
    const { participantId, name, anonymous } = this.claims;
    return { participantId, name, role: this.role, anonymous };
  }

  /** Whether envelopes for `target` reach this socket (live and when replayed on a resume). */
  receives(target: Target): boolean {
    if (target.to === 'moderators') return this.role === 'host' || this.role === 'workspace_admin';
    if (target.to === 'participant') return this.participantId === target.participantId;
    if (target.to === 'room') return this.role !== 'viewer';
    if (target.to === 'stage' || target.to === 'audience')
      return onStage(this.role) === (target.to === 'stage');
    return true;
  }

  presenceInfo(): PresenceInfo {
    const { participantId, userId, name, anonymous, role } = this.claims;
    return { participantId, userId, name, role: this.role, eventRole: role, anonymous };
  }

  /**
   * Messages fanned out before the socket is ready (welcome and state snapshot sent) wait, so
   * `welcome` is always first and a snapshot never overtakes a newer change.
   */
  send(message: LiveServerMessage): void {
    if (this.#queue) this.#queue.push(message);
    else this.sendNow(message);
  }

  sendNow(message: LiveServerMessage): void {
    if (this.lobby && !lobbyMessages.has(message.type)) return;
    if (message.seq !== undefined) {
      // A message the welcome's position or a replay already covered (each seq goes out once).
      if (message.seq <= this.lastSeq) return;
      this.lastSeq = message.seq;
    }
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > maxBufferedBytes) {
      this.ws.terminate();
      return;
    }
    coalesceWrites(this.socket);
    this.ws.send(encoded(message), { binary: false });
  }

  /** The welcome and what follows it this turn (the snapshot, the counts) leave in one write. */
  sendWelcome(welcome: LiveServerMessage): void {
    holdUntilTurnEnds(this.socket);
    this.sendNow(welcome);
  }

  /** Sends what waited for the welcome and the snapshot; from now on messages go straight out. */
  release(): void {
    const queued = this.#queue ?? [];
    this.#queue = null;
    for (const m of queued) this.sendNow(m);
  }

  close(code: number, reason: string): void {
    if (this.#queue) this.release();
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)
      this.ws.close(code, reason);
  }

  /** Token bucket: false when the client sends faster than the gateway accepts. */
  takeToken(now = Date.now()): boolean {
    return this.#rate.take(now);
  }
}
