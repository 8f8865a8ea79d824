import type { LiveServerMessage } from '@gathercast/contract';
import type { Logger } from 'pino';
import { inTurns } from '../lib/in-turns';
import type { LiveConnection } from './connection';
import type { AudienceCounts } from './presence-store';

/**
 * At most this many audience messages a second per event and process: a large audience hears the
 * counts less often (10,000 sockets here: every 5 s), so the counts never cost more than a fixed share
 * of the process however many watch. Joiners still get the counts right after their welcome.
 */
const audienceSendsPerSecond = 2000;
/**
 * A large audience's counts wait while the process serves a burst (a host's message being fanned out
 * to it, a join storm), but never longer than this many of its intervals since the last send. Sent
 * at 10,000 sockets they are 10,000 writes (about 0.1 s of the process and as much of every client's
 * attention): landing on a host's message, they made it reach the last viewer that much later.
 */
const maxDeferredIntervals = 2;

/**
 * One room's audience counts: the last ones sent (with their message: one object, serialized once for
 * every joiner), the read under way, and the last read for joiners, kept for one interval (a join
 * storm reads the counts once a second). A room starts afresh when its last socket leaves.
 */
export class RoomAudience {
  sent: { key: string; message: LiveServerMessage; at: number } | undefined;
  #reading: Promise<AudienceCounts> | undefined;
  #recent: { at: number; counts: Promise<AudienceCounts> } | undefined;

  constructor(
    private readonly counts: () => Promise<AudienceCounts>,
    private readonly intervalMs: number,
  ) {}

  /** The counts a joining socket gets after its welcome: the last ones sent here, or one shared read. */
  async current(): Promise<LiveServerMessage> {
    if (this.sent) return this.sent.message;
    const recent = this.#recent;
    if (recent && Date.now() - recent.at < this.intervalMs) return audienceMessage(await recent.counts);
    const counts = this.read();
    const entry = { at: Date.now(), counts };
    this.#recent = entry;
    counts.catch(() => {
      if (this.#recent === entry) this.#recent = undefined;
    });
    return audienceMessage(await counts);
  }

  /** The shared counts, one read at a time. */
  read(): Promise<AudienceCounts> {
    if (this.#reading) return this.#reading;
    const read = this.counts().finally(() => {
      this.#reading = undefined;
    });
    this.#reading = read;
    return read;
  }
}

/** What the ticker walks: the rooms with sockets on this process. */
export interface AudienceRoom {
  sockets: ReadonlySet<LiveConnection>;
  audience: RoomAudience;
}

/**
 * The audience of an event, counted instead of announced. Viewers are not announced one by one
 * (that is N messages per join, N² for a join storm): every socket gets an `audience` message with
 * the counts by role, right after its welcome and then at most once per interval when they changed
 * (a longer one for a large audience, see `audienceSendsPerSecond`).
 * Each process reads the shared counts once per interval for each room it has sockets in, so the
 * cost does not grow with joins.
 */
export class LiveAudience {
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;

  constructor(
    private readonly source: {
      counts(eventId: string): Promise<AudienceCounts>;
      /** Rooms with sockets on this process. */
      rooms(): Iterable<AudienceRoom>;
      /** Whether the process is serving a burst someone waits on (see ForegroundLoad). */
      busy(): boolean;
    },
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
  ) {}

  /** A new room's counts. */
  forRoom(eventId: string): RoomAudience {
    return new RoomAudience(() => this.source.counts(eventId), this.intervalMs);
  }

  start(): void {
    this.#timer = setInterval(() => void this.#tick(), this.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #tick(): Promise<void> {
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      for (const { sockets, audience } of [...this.source.rooms()]) {
        const sent = audience.sent;
        const everyMs = Math.max(this.intervalMs, (sockets.size / audienceSendsPerSecond) * 1000);
        const sinceSent = sent ? Date.now() - sent.at : Number.POSITIVE_INFINITY;
        // A tick's timer is not exact: a little early still counts as due.
        if (sinceSent < everyMs - this.intervalMs / 2) continue;
        const large = everyMs > this.intervalMs;
        if (large && this.source.busy() && sinceSent < maxDeferredIntervals * everyMs) continue;
        const counts = await audience.read();
        const key = JSON.stringify(counts);
        if (sent?.key === key) continue;
        const message = audienceMessage(counts);
        audience.sent = { key, message, at: Date.now() };
        await inTurns([...sockets], (conn) => conn.send(message));
      }
    } catch (err) {
      this.logger.warn({ err }, 'live audience count failed');
    } finally {
      this.#ticking = false;
    }
  }
}

export const audienceMessage = (byRole: AudienceCounts): LiveServerMessage => ({
  type: 'audience',
  total: Object.values(byRole).reduce((a, b) => a + b, 0),
  byRole,
});
