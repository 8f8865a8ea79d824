import type { LiveServerMessage } from '@gathercast/contract';

/**
 * Which of an event's connections, on every process, an envelope is for. `room`: everyone but
 * viewers (the people who are announced to each other one by one).
 */
export type Target =
  | { to: 'all' }
  | { to: 'room' }
  | { to: 'moderators' }
  | { to: 'participant'; participantId: string };

/**
 * Something that happens to the target connections besides (or instead of) a message. `resumed`: the
 * participant resumed a dropped socket somewhere, so leaves held for it anywhere can go quietly.
 */
export type Action = 'lobby.admit' | 'lobby.deny' | 'resumed';

export interface Envelope {
  eventId: string;
  target: Target;
  message?: LiveServerMessage;
  action?: Action;
  /** `resumed`: who resumed (one notice for many participants; older processes sent one per participant in `target`). */
  participants?: string[];
  /** The event stream's number for this envelope, assigned where it was published (set on delivery). */
  seq?: number;
}

/** An event's history after a seq: every envelope up to `lastSeq`, oldest first. */
export interface Backlog {
  lastSeq: number;
  envelopes: Envelope[];
}

/** How much of each event's stream is kept for resumes. */
export interface HistoryLimits {
  windowMs: number;
  /** At most this many envelopes per event; 0 keeps none (every message is still numbered). */
  max: number;
}

/**
 * Delivers envelopes to every server process of the deployment, this one included, each numbered in
 * its event's stream (one counter per event, shared by all processes) and kept in the event's history.
 */
export interface Fanout {
  start(deliver: (envelope: Envelope) => void): Promise<void>;
  publish(envelope: Envelope): Promise<void>;
  /** The event's last seq (0 before its first message). */
  lastSeq(eventId: string): Promise<number>;
  /** Everything after `after`, or null when the history no longer holds all of it (trimmed or too old). */
  since(eventId: string, after: number): Promise<Backlog | null>;
  stop(): Promise<void>;
}

/** The fan-out's channel name (PostgreSQL's NOTIFY channel; Redis's, with the deployment's namespace). */
export const channel = 'gc_live';

/** `<seq>:<envelope json>`, or `:<envelope json>` for a notice: the wire form on both backends. */
export function parseNumbered(payload: string): Envelope {
  const colon = payload.indexOf(':');
  const envelope = JSON.parse(payload.slice(colon + 1)) as Envelope;
  return colon > 0 ? { ...envelope, seq: Number(payload.slice(0, colon)) } : envelope;
}

/**
 * An envelope without a message (a resume, a lobby decision) is a notice to the processes, not part of
 * the event's stream: it takes no seq and no room in the history. A crowd resuming at once therefore
 * neither trims the messages its later members still need nor queues behind the event's counter.
 */
export const isNotice = (envelope: Envelope): boolean => !envelope.message;

/** A backlog is whole when it holds every seq from after + 1 to lastSeq. */
export function whole(after: number, lastSeq: number, envelopes: Envelope[]): Backlog | null {
  if (after > lastSeq || envelopes.length !== lastSeq - after) return null;
  if (envelopes.some((e, i) => e.seq !== after + 1 + i)) return null;
  return { lastSeq, envelopes };
}
