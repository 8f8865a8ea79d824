import type { LiveBatchedMessage, LiveServerMessage } from '@gathercast/contract';
import type { Logger } from 'pino';
import type { Envelope } from '../fanout';
import { type ChatLine, PendingActivity, type QuestionCreated, type Taken } from './pending';
import type { CrowdPolicy } from './policy';
import { fairSample } from './sample';

/** What the aggregator reads and sends through (the gateway's fan-out and stored counts). */
export interface CrowdSource {
  /** This process's sockets of the event. */
  audience(eventId: string): number;
  publish(envelope: Envelope): Promise<void>;
  /** `poll` messages with the polls' stored counts. */
  polls(eventId: string, pollIds: string[]): Promise<LiveBatchedMessage[]>;
  /** `question.updated` messages with the questions' stored tallies. */
  tallies(questionIds: string[]): Promise<LiveBatchedMessage[]>;
  /** The event's room here, where its crowd state is kept (made with `open`). */
  room(eventId: string, open: boolean): CrowdRoom | undefined;
  /** Every room here. */
  rooms(): Iterable<CrowdRoom & { eventId: string }>;
}

/** Where a room keeps its crowd's state: none until its first batched activity. */
export interface CrowdRoom {
  crowd: EventCrowd | undefined;
}

export interface EventCrowd {
  pending: PendingActivity;
  /** When the last frame started (a frame goes at most once per interval). */
  lastAt: number;
  cancel: (() => void) | undefined;
  /** Frames and final figures of the event, one after the other: a frame never overtakes a close. */
  chain: Promise<void>;
}

/**
 * A large audience's activity as state, not a message stream (policy.ts says when an audience is
 * large). Each process folds the activity of its own sockets per event and publishes one `batch`
 * envelope per interval to every process's sockets: leading edge (the first action after a quiet
 * interval goes at once), then at most one frame per interval, the last one carrying the counts
 * after the last vote. Every frame reads the counts it carries from the database, so they are
 * exact and the same whichever process sends them.
 *
 * Chat past the interval's cap: hosts, speakers and moderators (`stage`) get every line, everyone
 * else (`audience`) a fair sample; both frames are in the event's history, each replayed to its own.
 */
export class LiveCrowd {
  constructor(
    private readonly source: CrowdSource,
    readonly policy: CrowdPolicy,
    private readonly logger: Logger,
  ) {}

  /** Whether the event's activity goes in batch frames here (else each action is its own message). */
  large(eventId: string): boolean {
    return this.source.audience(eventId) >= this.policy.threshold;
  }

  pollVoted(eventId: string, pollIds: string[]): void {
    const { pending } = this.#state(eventId);
    for (const id of pollIds) pending.polls.add(id);
    this.#poke(eventId);
  }

  questionsVoted(eventId: string, questionIds: string[]): void {
    const { pending } = this.#state(eventId);
    for (const id of questionIds) pending.questions.add(id);
    this.#poke(eventId);
  }

  questionCreated(eventId: string, message: QuestionCreated): void {
    this.#state(eventId).pending.created.push(message);
    this.#poke(eventId);
  }

  reaction(eventId: string, emoji: string): void {
    const { reactions } = this.#state(eventId).pending;
    reactions.set(emoji, (reactions.get(emoji) ?? 0) + 1);
    this.#poke(eventId);
  }

  chat(eventId: string, line: ChatLine): void {
    this.#state(eventId).pending.chat.push(line);
    this.#poke(eventId);
  }

  /**
   * A poll close, an answer or a dismiss: its final figures go at once (`publish`), after any frame
   * already on its way and instead of the pending counts of the same poll or question.
   */
  async settle(
    eventId: string,
    settled: { polls?: string[]; questions?: string[] },
    publish: () => Promise<void>,
  ) {
    const state = this.source.room(eventId, false)?.crowd;
    if (!state) return publish();
    for (const id of settled.polls ?? []) state.pending.polls.delete(id);
    for (const id of settled.questions ?? []) state.pending.questions.delete(id);
    const done = state.chain.then(publish);
    state.chain = done.catch(() => {});
    return done;
  }

  /** Sends what is pending now (shutdown). */
  async stop(): Promise<void> {
    await Promise.all(
      [...this.source.rooms()].flatMap(({ eventId, crowd: state }) => {
        if (!state) return [];
        state.cancel?.();
        state.cancel = undefined;
        return this.#flush(eventId, state);
      }),
    );
  }

  #state(eventId: string): EventCrowd {
    const room = this.source.room(eventId, true)!;
    room.crowd ??= {
      pending: new PendingActivity(),
      lastAt: Number.NEGATIVE_INFINITY,
      cancel: undefined,
      chain: Promise.resolve(),
    };
    return room.crowd;
  }

  #interval(eventId: string): number {
    return this.policy.intervalMs(this.source.audience(eventId));
  }

  #poke(eventId: string): void {
    const state = this.#state(eventId);
    if (state.cancel) return;
    const wait = state.lastAt + this.#interval(eventId) - this.policy.clock.now();
    if (wait <= 0) {
      void this.#flush(eventId, state);
      return;
    }
    state.cancel = this.policy.clock.after(wait, () => {
      state.cancel = undefined;
      void this.#flush(eventId, state);
    });
  }

  /** A room whose crowd state holds nothing pending nor scheduled: the room may go. */
  static idle(room: CrowdRoom): boolean {
    return !room.crowd || (room.crowd.pending.empty && !room.crowd.cancel);
  }

  #flush(eventId: string, state: EventCrowd): Promise<void> {
    state.lastAt = this.policy.clock.now();
    state.chain = state.chain
      .then(() => this.#send(eventId, state))
      .catch((err: unknown) => this.logger.warn({ err, eventId }, 'live batch frame failed'));
    return state.chain;
  }

  async #send(eventId: string, state: EventCrowd): Promise<void> {
    if (state.pending.empty) return;
    const taken = state.pending.take();
    let counts: LiveBatchedMessage[];
    try {
      const [polls, tallies] = await Promise.all([
        taken.polls.length ? this.source.polls(eventId, taken.polls) : [],
        taken.questions.length ? this.source.tallies(taken.questions) : [],
      ]);
      counts = [...polls, ...tallies];
    } catch (err) {
      // The counts are stored; the next frame reads them again.
      state.pending.restore(taken);
      this.#poke(eventId);
      throw err;
    }
    await Promise.all(this.#frames(eventId, taken, counts).map((envelope) => this.source.publish(envelope)));
  }

  #frames(eventId: string, taken: Taken, counts: LiveBatchedMessage[]): Envelope[] {
    const reactions: LiveBatchedMessage[] = taken.reactions.length
      ? [{ type: 'reactions', reactions: taken.reactions }]
      : [];
    const batch = (chat: ChatLine[]): LiveServerMessage => ({
      type: 'batch',
      messages: [...taken.created, ...chat, ...counts, ...reactions],
      chatSkipped: taken.chat.length - chat.length,
    });
    const cap = this.policy.chatCap(this.#interval(eventId));
    if (taken.chat.length <= cap) return [{ eventId, target: { to: 'all' }, message: batch(taken.chat) }];
    const sample = fairSample(taken.chat, cap, (line) => line.from.participantId, this.policy.random);
    return [
      { eventId, target: { to: 'stage' }, message: batch(taken.chat) },
      { eventId, target: { to: 'audience' }, message: batch(sample) },
    ];
  }
}
