import type { EventRole, LiveServerMessage } from '@gathercast/contract';
import { WebSocket } from 'ws';
import type { GatewayClaims } from '../gateway/gateway-tokens';
import type { PresenceInfo } from './presence-store';

/** A refusal sent back as an `error` message; the connection stays open. */
export class LiveError extends Error {
  constructor(
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

/** Close codes of the gateway (docs/live-gateway.md). */
export const closeCodes = {
  normal: 1000,
  goingAway: 1001,
  eventEnded: 4000,
  lobbyDenied: 4003,
  eventNotLive: 4009,
  unresponsive: 4008,
} as const;

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
  #queue: LiveServerMessage[] | null = [];
  #tokens = rateBurst;
  #refilledAt = Date.now();

  constructor(
    readonly ws: WebSocket,
    readonly claims: GatewayClaims,
    readonly workspaceId: string,
    role: EventRole,
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
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
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
    this.#tokens = Math.min(rateBurst, this.#tokens + ((now - this.#refilledAt) / 1000) * ratePerSecond);
    this.#refilledAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
