import type { Feature, LiveClientMessage, LiveServerMessage } from '@gathercast/contract';
import type { AppContext } from '../lib/context';
import type { LiveConnection } from './connection';
import { LiveError } from './connection';
import type { SlowModeStore } from './control/slow-mode';
import type { ChatLog } from './crowd/chat-log';
import type { LiveCrowd } from './crowd/crowd';
import type { ReactionTotals } from './crowd/reaction-totals';
import type { LiveEvent } from './event-state';
import type { Fanout } from './fanout';
import type { PollVotes } from './poll-votes';
import type { LivePresence } from './presence';
import type { QuestionWrites } from './question-writes';
import type { LiveTables } from './tables';

/** What message handlers work with. */
export interface LiveDeps {
  ctx: AppContext;
  fanout: Fanout;
  presence: LivePresence;
  questions: QuestionWrites;
  pollVotes: PollVotes;
  tables: LiveTables;
  /** A large audience's activity, folded into batch frames. */
  crowd: LiveCrowd;
  chatLog: ChatLog;
  /** When each sender last chatted, shared by every process (slow mode). */
  slowMode: SlowModeStore;
  reactionTotals: ReactionTotals;
  /** The event as the database has it (cached for a moment, dropped on every lifecycle change). */
  event(eventId: string): Promise<LiveEvent | null>;
  /** This process's open connections of an event. */
  local(eventId: string): LiveConnection[];
}

/** One client message being handled: who sent it and the event as it is now. */
export interface Handling {
  deps: LiveDeps;
  conn: LiveConnection;
  event: LiveEvent;
}

export type Handler<T extends LiveClientMessage['type']> = (
  h: Handling,
  message: Extract<LiveClientMessage, { type: T }>,
) => Promise<void>;

export const toAll = (h: Handling, message: LiveServerMessage) =>
  h.deps.fanout.publish({ eventId: h.event.id, target: { to: 'all' }, message });

/** A phase feature (qa, chat, polls, reactions) is on when the governing phase lists it. */
export function requireFeature(event: LiveEvent, feature: Feature): void {
  if (!event.governingPhase?.featureSet.includes(feature))
    throw new LiveError('feature_disabled', `The current phase does not have ${feature} turned on`);
}
