/**
 * Which events' channels this process listens to, counted: each `serve` (a socket of the event here, a
 * leave held for one) is ended by one `release`. The first `serve` subscribes, the last `release`
 * unsubscribes; an event's subscribe and unsubscribe run one after the other, in call order, so a
 * `serve` right after a last `release` resolves only once the channel is listened to again.
 */
export class EventSubscriptions {
  readonly #events = new Map<string, { count: number; ready: Promise<void>; failed?: boolean }>();
  /** Per event, the last subscribe or unsubscribe issued (the next one waits for it). */
  readonly #tails = new Map<string, Promise<void>>();

  constructor(
    private readonly subscribe: (eventId: string) => Promise<unknown>,
    private readonly unsubscribe: (eventId: string) => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Resolves once the event's envelopes reach this process (rejects if the subscribe failed). */
  serve(eventId: string): Promise<void> {
    const entry = this.#events.get(eventId);
    if (entry) {
      entry.count++;
      // A subscribe that failed (Redis away) is tried again by the next socket, not kept as an answer.
      if (entry.failed) this.#subscribe(eventId, entry);
      return entry.ready;
    }
    const created = { count: 1, ready: Promise.resolve() };
    this.#events.set(eventId, created);
    this.#subscribe(eventId, created);
    return created.ready;
  }

  #subscribe(eventId: string, entry: { ready: Promise<void>; failed?: boolean }): void {
    entry.failed = false;
    entry.ready = this.#then(eventId, () => this.subscribe(eventId));
    entry.ready.catch(() => {
      entry.failed = true;
    });
  }

  release(eventId: string): void {
    const entry = this.#events.get(eventId);
    if (!entry || --entry.count > 0) return;
    this.#events.delete(eventId);
    void this.#then(eventId, () => this.unsubscribe(eventId)).catch(this.onError);
  }

  /** The events listened to now. */
  events(): string[] {
    return [...this.#events.keys()];
  }

  #then(eventId: string, step: () => Promise<unknown>): Promise<void> {
    const previous = this.#tails.get(eventId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(async () => void (await step()));
    this.#tails.set(eventId, next);
    void next.then(
      () => this.#tails.get(eventId) === next && this.#tails.delete(eventId),
      () => this.#tails.get(eventId) === next && this.#tails.delete(eventId),
    );
    return next;
  }
}
