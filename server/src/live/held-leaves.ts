type Leave = () => Promise<void>;

/**
 * A room's leaves held for the resume window, per participant: sockets lost without a close frame, or
 * moved away by a draining process. A resume (here or on another process) finds the participant still
 * present and lets them go without a `participant.left`; the window's end, or shutdown, runs them.
 */
export class HeldLeaves {
  readonly #byParticipant = new Map<string, Set<Leave>>();

  constructor(
    /** Called when the last held leave went (the room may have nothing left). */
    private readonly done: () => void,
  ) {}

  get size(): number {
    return this.#byParticipant.size;
  }

  /** Runs `leave` after `ms`, unless a resume or shutdown runs it first. */
  hold(participantId: string, leave: Leave, ms: number): void {
    const held = this.#byParticipant.get(participantId) ?? new Set();
    this.#byParticipant.set(participantId, held);
    const run = () => {
      // Once: a resume, the window's end and shutdown may each reach for the same leave.
      if (!held.delete(run)) return Promise.resolve();
      if (!held.size && this.#byParticipant.get(participantId) === held) {
        this.#byParticipant.delete(participantId);
        if (!this.#byParticipant.size) this.done();
      }
      clearTimeout(timer);
      return leave();
    };
    const timer = setTimeout(run, ms);
    timer.unref();
    held.add(run);
  }

  /** The participants resumed somewhere and count as present there: their held leaves go now. */
  resumed(participantIds: Iterable<string>): void {
    for (const id of participantIds) for (const run of this.#byParticipant.get(id) ?? []) void run();
  }

  /** Shutdown: every held leave, now. */
  async runAll(): Promise<void> {
    await Promise.all([...this.#byParticipant.values()].flatMap((held) => [...held].map((run) => run())));
  }
}
