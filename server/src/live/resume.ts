import type { GatewayTokens } from '../gateway/tokens';
import { Batcher } from '../lib/batcher';
import type { Backlog, Envelope, Fanout } from './fanout';

/** `?resume=<secret>&after=<seq>`: a reconnect asking to continue a session. */
export interface ResumeRequest {
  secret: string;
  /** -1 when the request's `after` was not a non-negative integer (it cannot be resumed from). */
  after: number;
}

/** The resume request of a reconnect's URL, if it asks for one. */
export function resumeRequest(url: URL): ResumeRequest | undefined {
  const secret = url.searchParams.get('resume');
  if (!secret) return undefined;
  const after = Number(url.searchParams.get('after') ?? 'x');
  // A malformed position cannot be resumed from: it fails like a trimmed history.
  return { secret, after: Number.isSafeInteger(after) && after >= 0 ? after : -1 };
}

interface Read {
  eventId: string;
  after: number;
}

interface Resumed {
  eventId: string;
  participantId: string;
}

/**
 * At most this many participants per `resumed` notice: their ids stay well inside one notification
 * payload (about 45 bytes each).
 */
const maxNoticeBatch = 100;

/**
 * The resume side of a socket's first moments, shaped for a crowd: when a process dies, its sockets
 * come back to the others all at once, and each of them needs the history since its last seq and a
 * notice that it is present again.
 *
 * - History reads are grouped: the resumes of an event that arrive while a read is running wait for it
 *   and then share one read, from the lowest position among them; each gets its own part. Sharing is
 *   exact because a read only serves requests made before it started, i.e. by sockets registered
 *   before it (they receive every later message live).
 * - `resumed` notices are grouped the same way: one notice names up to 100 participants.
 *
 * Neither adds latency to a lone resume: a request made while nothing is running goes at once.
 */
export class LiveResumes {
  readonly #reads = new Batcher<Read, Backlog | null>((reads) => this.#read(reads), 1000, 1);
  readonly #notices = new Batcher<Resumed, undefined>((resumed) => this.#notify(resumed), maxNoticeBatch, 2);

  constructor(
    private readonly fanout: Fanout,
    private readonly tokens: Pick<GatewayTokens, 'resumeFloor'>,
    /** Replaces what was deleted for everyone since it was published (live/control/chat-deletion.ts). */
    private readonly scrub: (eventId: string, envelopes: Envelope[]) => Promise<Envelope[]> = async (_, e) =>
      e,
  ) {}

  async #since(eventId: string, after: number): Promise<Backlog | null> {
    const backlog = await this.fanout.since(eventId, after);
    return backlog && { ...backlog, envelopes: await this.scrub(eventId, backlog.envelopes) };
  }

  /**
   * What a resuming socket missed, if it can be replayed: the resume secret must be this participant's
   * in this event, the socket's last seq no older than the position its session joined at, and the
   * history must still hold every message after it.
   */
  async backlog(eventId: string, participantId: string, resume: ResumeRequest): Promise<Backlog | null> {
    if (resume.after < 0) return null;
    // Nothing from before the session joined: its secret names the position it joined at.
    const floor = await this.tokens.resumeFloor(resume.secret, eventId, participantId);
    if (floor === null || resume.after < floor) return null;
    return this.#reads.submit({ eventId, after: resume.after });
  }

  /** The participant is present here now: leaves held for them on any process can go without a left. */
  resumed(eventId: string, participantId: string): Promise<void> {
    return this.#notices.submit({ eventId, participantId });
  }

  async #read(reads: Read[]): Promise<(Backlog | null)[]> {
    const from = new Map<string, number>();
    for (const r of reads) from.set(r.eventId, Math.min(from.get(r.eventId) ?? r.after, r.after));
    const shared = new Map([...from].map(([eventId, after]) => [eventId, this.#since(eventId, after)]));
    return Promise.all(
      reads.map(async ({ eventId, after }) => {
        const backlog = await shared.get(eventId)!;
        // The oldest position is no longer kept: a later one may still be, and is read on its own.
        if (!backlog) return after === from.get(eventId) ? null : this.#since(eventId, after);
        if (after > backlog.lastSeq) return null;
        return { lastSeq: backlog.lastSeq, envelopes: backlog.envelopes.filter((e) => e.seq! > after) };
      }),
    );
  }

  async #notify(resumed: Resumed[]): Promise<undefined[]> {
    for (const eventId of new Set(resumed.map((r) => r.eventId)))
      await this.fanout.publish({
        eventId,
        target: { to: 'all' },
        action: 'resumed',
        participants: resumed.filter((r) => r.eventId === eventId).map((r) => r.participantId),
      });
    return resumed.map(() => undefined);
  }
}
