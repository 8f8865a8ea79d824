import type { EventRole } from '@gathercast/contract';
import type { SqlTx } from '../db/sql';

/** Participants present by narrowed role (at join time), every process counted. */
export type AudienceCounts = Record<EventRole, number>;

export const noAudience = (): AudienceCounts => ({
  host: 0,
  speaker: 0,
  participant: 0,
  viewer: 0,
  workspace_admin: 0,
});

/** What presence remembers of a participant (for presence messages and the participant.left webhook). */
export interface PresenceInfo {
  participantId: string;
  userId: string | null;
  name: string | null;
  /** Narrowed for the phase it joined in. */
  role: EventRole;
  /** The token's role (narrowed to the event, not to a phase): what later phases narrow again. */
  eventRole: EventRole;
  anonymous: boolean;
}

/** One connection's join: who, and the id its participant.joined webhook gets if it is the first anywhere. */
export interface PresenceJoin {
  info: PresenceInfo;
  webhookId: string;
}

/**
 * An entry a sweep removed. `last`: nobody is present any more (participant.left is due, if the join
 * was announced). `unsettledWebhookId`: the crashed process had decided this join was the first but
 * may have died before its participant.joined committed: whether a row with this id exists tells.
 */
export interface SweptEntry {
  eventId: string;
  info: PresenceInfo;
  last: boolean;
  unsettledWebhookId?: string;
}

/**
 * Connections per participant, counted across every server process. `joinMany` and `leave` run once
 * per connection; they answer whether this was the participant's first (last) connection anywhere.
 * Each process renews its own entries with `heartbeat`; `sweep` drops the entries of processes that
 * stopped renewing (crashed) and answers the participants who are therefore gone.
 */
export interface PresenceStore {
  /**
   * One connection each for several distinct participants of an event; answers those for whom it was
   * the first connection anywhere. A store kept in the database writes in `tx`, so the presence rows
   * commit with the participant.joined outbox rows written there. A store outside the database keeps
   * the firsts marked unsettled until `settle`: if the process dies before, the sweep asks the
   * database whether their webhooks committed.
   */
  joinMany(tx: SqlTx, eventId: string, joins: PresenceJoin[]): Promise<PresenceJoin[]>;
  /**
   * After the transaction of a `joinMany`: committed, the joins are settled; not committed, they are
   * undone (a store in the database has nothing to do: its rows rolled back with the webhooks).
   */
  settle(eventId: string, joins: PresenceJoin[], committed: boolean): Promise<void>;
  leave(eventId: string, participantId: string): Promise<PresenceInfo | null>;
  list(eventId: string): Promise<PresenceInfo[]>;
  /** Present participants with participantId > `after`, in participantId order, at most `limit`. */
  page(eventId: string, after: string, limit: number): Promise<PresenceInfo[]>;
  /** How many participants are present, by role (read about once a second per event and process). */
  counts(eventId: string): Promise<AudienceCounts>;
  heartbeat(): Promise<void>;
  sweep(): Promise<SweptEntry[]>;
  stop(): Promise<void>;
}

export interface PresenceTiming {
  /** How often a process renews its presence entries and sweeps expired ones. */
  heartbeatMs: number;
  /** How long an entry lives without renewal. */
  ttlMs: number;
  /** How often sockets hear the audience counts (when they changed). */
  audienceMs?: number;
}

export const defaultPresenceTiming: PresenceTiming = { heartbeatMs: 10_000, ttlMs: 30_000, audienceMs: 1000 };
