import { OrderedSlices } from '../lib/ordered-slices';
import type { RoomAudience } from './audience-counts';
import type { LiveConnection } from './connection';
import type { CrowdRoom, EventCrowd } from './crowd/crowd';
import { LiveCrowd } from './crowd/crowd';
import { HeldLeaves } from './held-leaves';
import type { JoinSnapshot } from './join-snapshot';
import type { StreamPosition } from './stream-position';

/** How a room makes the parts it starts afresh when its last socket leaves. */
export interface RoomParts {
  position(eventId: string): StreamPosition;
  snapshot(eventId: string): JoinSnapshot;
  audience(eventId: string): RoomAudience;
  /** A delivery to one socket threw (the others still get the message). */
  deliveryFailed(err: unknown): void;
}

/**
 * One event's live room on this process: the event's sockets here, where its stream is (the position
 * a joiner starts after), the state snapshot joiners share, the audience counts sent, the leaves held
 * for resumes, and a large audience's pending activity (crowd/crowd.ts). Everything a process knows
 * of an event besides its cached state (event-cache.ts) is here, so it goes with the room.
 *
 * What joiners share (position, snapshot, counts) is kept while the room has sockets and starts
 * afresh with the next first joiner; the room itself stays while leaves are held or activity is
 * pending, and the registry (rooms.ts) drops it when nothing is left.
 */
export class LiveRoom implements CrowdRoom {
  readonly sockets = new Set<LiveConnection>();
  position: StreamPosition;
  snapshot: JoinSnapshot;
  audience: RoomAudience;
  readonly held: HeldLeaves;
  crowd: EventCrowd | undefined;
  /** The room's deliveries, in order; a large room's in slices (lib/ordered-slices.ts). */
  readonly deliveries: OrderedSlices<LiveConnection>;

  constructor(
    readonly eventId: string,
    private readonly parts: RoomParts,
    /** Called when the room may have nothing left (its last held leave went). */
    maybeIdle: () => void,
  ) {
    this.position = parts.position(eventId);
    this.snapshot = parts.snapshot(eventId);
    this.audience = parts.audience(eventId);
    this.held = new HeldLeaves(maybeIdle);
    this.deliveries = new OrderedSlices(parts.deliveryFailed);
  }

  /** This process's sockets of the event, as a list the caller may keep. */
  local(): LiveConnection[] {
    return [...this.sockets];
  }

  /** The last socket left: the next joiner reads the position, the snapshot and the counts afresh. */
  emptied(): void {
    this.position = this.parts.position(this.eventId);
    this.snapshot = this.parts.snapshot(this.eventId);
    this.audience = this.parts.audience(this.eventId);
  }

  /**
   * No sockets, no held leave, no pending activity: nothing of the room is left (a delivery still in
   * slices walks an empty set to its end).
   */
  get idle(): boolean {
    return !this.sockets.size && !this.held.size && LiveCrowd.idle(this);
  }
}
