import type { LiveBatchedMessage } from '@gathercast/contract';

export type ChatLine = Extract<LiveBatchedMessage, { type: 'chat.message' }>;
export type QuestionCreated = Extract<LiveBatchedMessage, { type: 'question.created' }>;

/**
 * One event's audience activity since its last batch frame. Counts are kept as "which changed"
 * (poll and question ids): the frame reads their exact stored counts when it goes, so it carries the
 * latest figures however many votes came in between.
 */
export class PendingActivity {
  readonly polls = new Set<string>();
  readonly questions = new Set<string>();
  readonly created: QuestionCreated[] = [];
  readonly reactions = new Map<string, number>();
  readonly chat: ChatLine[] = [];

  get empty(): boolean {
    return (
      !this.polls.size &&
      !this.questions.size &&
      !this.created.length &&
      !this.reactions.size &&
      !this.chat.length
    );
  }

  /** Everything pending, handed over; this starts empty again. */
  take(): Taken {
    const taken: Taken = {
      polls: [...this.polls],
      questions: [...this.questions],
      created: this.created.splice(0),
      reactions: [...this.reactions].map(([emoji, count]) => ({ emoji, count })),
      chat: this.chat.splice(0),
    };
    this.polls.clear();
    this.questions.clear();
    this.reactions.clear();
    return taken;
  }

  /** Counts a frame could not send go out with the next one. */
  restore(taken: Pick<Taken, 'polls' | 'questions'>): void {
    for (const id of taken.polls) this.polls.add(id);
    for (const id of taken.questions) this.questions.add(id);
  }
}

export interface Taken {
  polls: string[];
  questions: string[];
  created: QuestionCreated[];
  reactions: { emoji: string; count: number }[];
  chat: ChatLine[];
}
