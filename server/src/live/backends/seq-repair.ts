import type { Logger } from 'pino';
import type { Backlog, Envelope } from '../fanout';

/** How often each served event's counter is compared with what was delivered here. */
export const seqCheckMs = 1000;

interface Served {
  /** The last seq delivered here. */
  last: number;
  /** The counter as read at the previous check: everything up to it should have arrived by now. */
  due: number;
  /** While a fill runs: the live envelopes that arrived meanwhile (delivered after it, in order). */
  waiting?: Envelope[];
}

/**
 * Pub/sub delivers at most once: a subscriber that reconnects (a Redis restart, a Sentinel or cluster
 * failover) misses what was published meanwhile. Every served event's numbered envelopes therefore go
 * through here: one that skips a seq, or a counter that stays ahead of the deliveries for a check
 * period, is filled from the event's history, so this process's sockets still get each message once
 * and in order. When the history no longer holds the gap (trimmed, or kept off), the stream goes on
 * from what arrives, as before.
 */
export class SeqRepair {
  readonly #served = new Map<string, Served>();

  constructor(
    private readonly source: {
      since(eventId: string, after: number): Promise<Backlog | null>;
      lastSeq(eventId: string): Promise<number>;
      raise(eventId: string, floor: number): Promise<boolean>;
    },
    private readonly deliver: (envelope: Envelope) => void,
    private readonly logger: Logger,
  ) {}

  /** The event's channel is listened to; its stream counts from `lastSeq` (read after subscribing). */
  begin(eventId: string, lastSeq: number): void {
    const known = this.#served.get(eventId);
    if (known) known.last = Math.max(known.last, lastSeq);
    else this.#served.set(eventId, { last: lastSeq, due: lastSeq });
  }

  end(eventId: string): void {
    this.#served.delete(eventId);
  }

  receive(envelope: Envelope): void {
    const served = envelope.seq === undefined ? undefined : this.#served.get(envelope.eventId);
    if (!served) {
      this.deliver(envelope);
      return;
    }
    if (served.waiting) {
      served.waiting.push(envelope);
      return;
    }
    const seq = envelope.seq!;
    if (seq <= served.last) return;
    if (seq === served.last + 1) {
      served.last = seq;
      this.deliver(envelope);
      return;
    }
    void this.#fill(envelope.eventId, served, [envelope]);
  }

  /** The last seq delivered here for a served event (undefined for one not served here). */
  lastDelivered(eventId: string): number | undefined {
    return this.#served.get(eventId)?.last;
  }

  /**
   * Called every `seqCheckMs`: fills the events whose deliveries stayed behind their counter, and
   * raises a counter that went back below what was delivered here (Redis lost writes in an unplanned
   * failover): left there, the event's next messages would take numbers already sent, which every
   * process that saw them would drop.
   */
  async check(): Promise<void> {
    await Promise.all(
      [...this.#served].map(async ([eventId, served]) => {
        const counter = await this.source.lastSeq(eventId).catch(() => served.last);
        if (counter < served.last && (await this.source.raise(eventId, served.last).catch(() => false)))
          this.logger.warn(
            { eventId, counter, delivered: served.last },
            'live event counter went back; raised',
          );
        if (!served.waiting && served.last < served.due) await this.#fill(eventId, served, []);
        served.due = counter;
      }),
    );
  }

  async #fill(eventId: string, served: Served, waiting: Envelope[]): Promise<void> {
    served.waiting = waiting;
    const backlog = await this.source.since(eventId, served.last).catch((err: unknown) => {
      this.logger.warn({ err, eventId }, 'live fan-out gap not filled');
      return null;
    });
    for (const e of backlog?.envelopes ?? []) this.#pass(eventId, served, e);
    served.waiting = undefined;
    for (const e of waiting.sort((a, b) => a.seq! - b.seq!)) this.#pass(eventId, served, e);
  }

  #pass(eventId: string, served: Served, envelope: Envelope): void {
    if (envelope.seq! <= served.last) return;
    served.last = envelope.seq!;
    this.deliver({ ...envelope, eventId });
  }
}
