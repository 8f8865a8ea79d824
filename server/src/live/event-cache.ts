import type { LiveEvent } from './event-state';

/** How long a read of an event's live state serves the hot path (joins, client messages). */
export const eventCacheMs = 1000;
/** Events with at least this many sockets here are kept fresh in the background (see `keepFresh`). */
export const largeAudience = 1000;

interface Entry {
  /** When the read started: the state is at most this old. */
  at: number;
  value: Promise<LiveEvent | null>;
}

/**
 * Each event's live state, read at most once per `eventCacheMs` by all of a process's joiners and
 * messages. A status or phase change is pushed (`forget`, from the lifecycle notifications); anything
 * else about the event is at most `eventCacheMs` old.
 */
export class LiveEventCache {
  readonly #entries = new Map<string, Entry>();
  /** Bumped by every `forget`: a background read that started before one must not install its result. */
  #epoch = 0;

  constructor(
    private readonly load: (eventId: string) => Promise<LiveEvent | null>,
    private readonly now: () => number = Date.now,
  ) {}

  get(eventId: string): Promise<LiveEvent | null> {
    const cached = this.#entries.get(eventId);
    if (cached && this.now() - cached.at < eventCacheMs) return cached.value;
    const entry = { at: this.now(), value: this.load(eventId) };
    this.#entries.set(eventId, entry);
    entry.value.catch(() => {
      if (this.#entries.get(eventId) === entry) this.#entries.delete(eventId);
    });
    return entry.value;
  }

  forget(eventId: string): void {
    this.#epoch++;
    this.#entries.delete(eventId);
  }

  /**
   * Reads these events' state again in the background, the entry in use serving meanwhile. Called
   * about once per `eventCacheMs` for events with a large audience here: a host's message to thousands
   * of viewers (the first after a quiet moment included) then never waits for a read on a database
   * that the crowd keeps busy. One read per second per large event is nothing beside its audience.
   */
  keepFresh(eventIds: Iterable<string>): void {
    for (const eventId of eventIds) {
      const epoch = this.#epoch;
      const at = this.now();
      const value = this.load(eventId);
      value.then(
        () => {
          // A status or phase change meanwhile wins (the next read takes it from the database), and so
          // does a read that started later.
          const current = this.#entries.get(eventId);
          if (this.#epoch === epoch && (!current || current.at < at)) this.#entries.set(eventId, { at, value });
        },
        () => {},
      );
    }
  }
}
