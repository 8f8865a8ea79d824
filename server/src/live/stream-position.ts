/**
 * A room's stream position as a joining socket takes it: the seq after which every message reaches
 * the socket live. Every numbered envelope passes through this process's delivery (in seq order: the
 * stream commits, and so notifies, in seq order), so once the position is known it is kept up from
 * the deliveries, and a join reads nothing: position = max(the first read, the last seq delivered
 * before the socket was registered). Why that is exact: a seq above the first read was committed after
 * it, so it is delivered after the read started; one above the last delivered seq has not been
 * delivered yet; either way it reaches the registered socket. Only the first joiner of the room (while
 * it has sockets here: the room starts a new position when its last socket leaves) reads the
 * database; joiners meanwhile share that read.
 */
export class StreamPosition {
  #known: { read: Promise<number>; delivered: number } | undefined;

  constructor(private readonly read: () => Promise<number>) {}

  /** The position of a socket registered just now (call it synchronously after registering). */
  lastSeq(): Promise<number> {
    let known = this.#known;
    if (!known) {
      const entry = { read: this.read(), delivered: 0 };
      entry.read.catch(() => {
        if (this.#known === entry) this.#known = undefined;
      });
      this.#known = entry;
      known = entry;
    }
    const delivered = known.delivered;
    return known.read.then((read) => Math.max(read, delivered));
  }

  /** A numbered envelope of the event is being delivered to this process's sockets. */
  delivered(seq: number): void {
    const known = this.#known;
    if (known && seq > known.delivered) known.delivered = seq;
  }
}
