import type { LiveServerMessage } from '@gathercast/contract';
import type { Queryable } from '../db/pool';
import { moderationSnapshot } from './moderation';
import { pollSnapshot } from './polls';

/**
 * The state a joining socket is sent after its welcome (banner, raised hands, open polls), read once
 * and shared by every joiner of the room (this process's sockets of the event) while the event's
 * stream stays at the same seq. Why that is exact: each joiner registers its socket, then reads the
 * stream's last seq, and a snapshot is only
 * read after such a seq read, so it holds every change numbered up to that seq (changes are committed
 * before they are published). A joiner that read the same seq gets every later change live; any
 * other seq reads afresh. A join storm without state changes therefore costs one snapshot read.
 */
export class JoinSnapshot {
  #cached: { seq: number; messages: Promise<LiveServerMessage[]> } | undefined;

  /** `read`: the event's snapshot from the database (readJoinSnapshot); injected so the sharing rule stands alone. */
  constructor(private readonly read: () => Promise<LiveServerMessage[]>) {}

  /** The snapshot for a joiner whose socket starts after `seq`. */
  get(seq: number): Promise<LiveServerMessage[]> {
    const cached = this.#cached;
    if (cached?.seq === seq) return cached.messages;
    const messages = this.read();
    const entry = { seq, messages };
    // A newer seq replaces an older one; a joiner that read an older seq reads afresh without caching.
    if (!cached || cached.seq < seq) this.#cached = entry;
    messages.catch(() => {
      if (this.#cached === entry) this.#cached = undefined;
    });
    return messages;
  }
}

/** The event's join state: its moderation state (banner, raised hands) and its open polls. */
export async function readJoinSnapshot(db: Queryable, eventId: string): Promise<LiveServerMessage[]> {
  const [moderation, polls] = await Promise.all([moderationSnapshot(db, eventId), pollSnapshot(db, eventId)]);
  return [...moderation, ...polls];
}
