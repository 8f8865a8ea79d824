import type { LiveServerMessage } from '@gathercast/contract';
import type { Logger } from 'pino';
import { inTurns } from '../lib/in-turns';
import type { LiveConnection } from './connection';
import { LiveError } from './connection';
import type { Handler } from './deps';
import type { AudienceCounts, PresenceInfo } from './presence-store';

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
 * The audience of an event, counted instead of announced. Viewers are not announced one by one
 * (that is N messages per join, N² for a join storm): every socket gets an `audience` message with
 * the counts by role, right after its welcome and then at most once per interval when they changed
 * (a longer one for a large audience, see `audienceSendsPerSecond`).
 * Each process reads the shared counts once per interval for each event it has sockets of, so the
 * cost does not grow with joins.
 */
export class LiveAudience {
  /** The last counts sent per event, with their message (one object: serialized once for every joiner). */
  readonly #sent = new Map<string, { key: string; message: LiveServerMessage; at: number }>();
  readonly #reading = new Map<string, Promise<AudienceCounts>>();
  /** The last counts read for joiners, kept for one interval: a join storm reads the counts once a second. */
  readonly #recent = new Map<string, { at: number; counts: Promise<AudienceCounts> }>();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;

  constructor(
    private readonly source: {
      counts(eventId: string): Promise<AudienceCounts>;
      /** Events with sockets on this process. */
      events(): Iterable<string>;
      local(eventId: string): LiveConnection[];
      /** Whether the process is serving a burst someone waits on (see ForegroundLoad). */
      busy(): boolean;
    },
    private readonly logger: Logger,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.#timer = setInterval(() => void this.#tick(), this.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** The counts a joining socket gets after its welcome: the last ones sent here, or one shared read. */
  async current(eventId: string): Promise<LiveServerMessage> {
    const sent = this.#sent.get(eventId);
    if (sent) return sent.message;
    const recent = this.#recent.get(eventId);
    if (recent && Date.now() - recent.at < this.intervalMs) return audienceMessage(await recent.counts);
    const counts = this.#read(eventId);
    const entry = { at: Date.now(), counts };
    this.#recent.set(eventId, entry);
    counts.catch(() => {
      if (this.#recent.get(eventId) === entry) this.#recent.delete(eventId);
    });
    return audienceMessage(await counts);
  }

  /** An event without sockets here any more: forget what was sent. */
  forget(eventId: string): void {
    this.#sent.delete(eventId);
    this.#recent.delete(eventId);
  }

  #read(eventId: string): Promise<AudienceCounts> {
    const reading = this.#reading.get(eventId);
    if (reading) return reading;
    const read = this.source.counts(eventId).finally(() => this.#reading.delete(eventId));
    this.#reading.set(eventId, read);
    return read;
  }

  async #tick(): Promise<void> {
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      for (const eventId of [...this.source.events()]) {
        const sockets = this.source.local(eventId);
        const sent = this.#sent.get(eventId);
        const everyMs = Math.max(this.intervalMs, (sockets.length / audienceSendsPerSecond) * 1000);
        const sinceSent = sent ? Date.now() - sent.at : Number.POSITIVE_INFINITY;
        // A tick's timer is not exact: a little early still counts as due.
        if (sinceSent < everyMs - this.intervalMs / 2) continue;
        const large = everyMs > this.intervalMs;
        if (large && this.source.busy() && sinceSent < maxDeferredIntervals * everyMs) continue;
        const counts = await this.#read(eventId);
        const key = JSON.stringify(counts);
        if (sent?.key === key) continue;
        const message = audienceMessage(counts);
        this.#sent.set(eventId, { key, message, at: Date.now() });
        await inTurns(sockets, (conn) => conn.send(message));
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

const defaultPageSize = 50;

/** Cursors are opaque to clients: the last participantId of the page, base64url-encoded. */
const encodeCursor = (participantId: string) => Buffer.from(participantId).toString('base64url');
const decodeCursor = (cursor: string) => Buffer.from(cursor, 'base64url').toString();

/** Moderators page through who is present, in participantId order. */
export const listAudience: Handler<'audience.list'> = async (h, { cursor, limit, requestId }) => {
  const size = limit ?? defaultPageSize;
  const after = cursor ? decodeCursor(cursor) : '';
  if (cursor && !after) throw new LiveError('bad_request', 'cursor: not a cursor this gateway gave out');
  // One more than asked tells whether another page follows.
  const found: PresenceInfo[] = await h.deps.presence.page(h.event.id, after, size + 1);
  const page = found.slice(0, size);
  const last = page[page.length - 1];
  h.conn.send({
    type: 'audience.page',
    requestId: requestId ?? null,
    participants: page.map(({ participantId, name, role, anonymous }) => ({ participantId, name, role, anonymous })),
    nextCursor: found.length > size && last ? encodeCursor(last.participantId) : null,
  });
};
