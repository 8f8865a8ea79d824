import type { LiveConnection } from './connection';
import { LiveRoom, type RoomParts } from './room';

/**
 * The rooms of this process, one per event with sockets (or held leaves, or pending activity) here:
 * a room is made for its first socket and dropped when nothing of it is left.
 */
export class LiveRooms {
  readonly #rooms = new Map<string, LiveRoom>();

  constructor(
    private readonly parts: RoomParts,
    /** The event's last socket here left (its cached state may go too). */
    private readonly emptied: (eventId: string) => void,
  ) {}

  get(eventId: string): LiveRoom | undefined {
    return this.#rooms.get(eventId);
  }

  /** The event's room, made if there is none. */
  open(eventId: string): LiveRoom {
    let room = this.#rooms.get(eventId);
    if (!room) {
      const made = new LiveRoom(eventId, this.parts, () => this.#dropIfIdle(made));
      this.#rooms.set(eventId, made);
      room = made;
    }
    return room;
  }

  /** Every room, with sockets here or not. */
  all(): IterableIterator<LiveRoom> {
    return this.#rooms.values();
  }

  /** The rooms with sockets here. */
  *occupied(): Iterable<LiveRoom> {
    for (const room of this.#rooms.values()) if (room.sockets.size) yield room;
  }

  /** This process's open connections of an event. */
  local(eventId: string): LiveConnection[] {
    return this.#rooms.get(eventId)?.local() ?? [];
  }

  /** Every open connection of this process. */
  sockets(): LiveConnection[] {
    return [...this.#rooms.values()].flatMap((room) => [...room.sockets]);
  }

  /** A socket is registered in its event's room (made if needed). */
  enter(conn: LiveConnection): LiveRoom {
    const room = this.open(conn.eventId);
    room.sockets.add(conn);
    return room;
  }

  /** A socket closed: the room starts afresh when it was the last, and goes when nothing is left. */
  leave(room: LiveRoom, conn: LiveConnection): void {
    room.sockets.delete(conn);
    if (room.sockets.size || this.#rooms.get(room.eventId) !== room) return;
    room.emptied();
    this.emptied(room.eventId);
    this.#dropIfIdle(room);
  }

  /** Sockets lost abruptly keep leaves held in their rooms: how many rooms still hold some. */
  get holding(): number {
    let n = 0;
    for (const room of this.#rooms.values()) if (room.held.size) n++;
    return n;
  }

  #dropIfIdle(room: LiveRoom): void {
    if (room.idle && this.#rooms.get(room.eventId) === room) this.#rooms.delete(room.eventId);
  }
}
