import type { EventRole } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';

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
   * commit with the participant.joined outbox rows written there.
   */
  joinMany(tx: EntityManager, eventId: string, infos: PresenceInfo[]): Promise<PresenceInfo[]>;
  leave(eventId: string, participantId: string): Promise<PresenceInfo | null>;
  list(eventId: string): Promise<PresenceInfo[]>;
  /** Present participants with participantId > `after`, in participantId order, at most `limit`. */
  page(eventId: string, after: string, limit: number): Promise<PresenceInfo[]>;
  /** How many participants are present, by role (read about once a second per event and process). */
  counts(eventId: string): Promise<AudienceCounts>;
  heartbeat(): Promise<void>;
  sweep(): Promise<{ eventId: string; info: PresenceInfo }[]>;
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
