import type { LiveServerMessage } from '@gathercast/contract';
import type { Queryable } from '../db/pool';
import { moderationSnapshot } from './moderation';
import { pollSnapshot } from './polls';

/**
 * The state a joining socket is sent after its welcome (banner, raised hands, open polls), read once
 * and shared by every joiner of this process while the event's stream stays at the same seq. Why that
 * is exact: each joiner registers its socket, then reads the stream's last seq, and a snapshot is only
 * read after such a seq read, so it holds every change numbered up to that seq (changes are committed
 * before they are published). A joiner that read the same seq gets every later change live; any
 * other seq reads afresh. A join storm without state changes therefore costs one snapshot read.
 */
export class JoinSnapshots {
  readonly #byEvent = new Map<string, { seq: number; messages: Promise<LiveServerMessage[]> }>();

  constructor(private readonly db: Queryable) {}

  /** The snapshot for a joiner whose socket starts after `seq`. */
  get(eventId: string, seq: number): Promise<LiveServerMessage[]> {
    const cached = this.#byEvent.get(eventId);
    if (cached?.seq === seq) return cached.messages;
    const messages = read(this.db, eventId);
    const entry = { seq, messages };
    // A newer seq replaces an older one; a joiner that read an older seq reads afresh without caching.
    if (!cached || cached.seq < seq) this.#byEvent.set(eventId, entry);
    messages.catch(() => {
      if (this.#byEvent.get(eventId) === entry) this.#byEvent.delete(eventId);
    });
    return messages;
  }

  /** No sockets of the event here any more. */
  forget(eventId: string): void {
    this.#byEvent.delete(eventId);
  }
}

async function read(db: Queryable, eventId: string): Promise<LiveServerMessage[]> {
  const [moderation, polls] = await Promise.all([moderationSnapshot(db, eventId), pollSnapshot(db, eventId)]);
  return [...moderation, ...polls];
}
