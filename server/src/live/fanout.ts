import type { LiveServerMessage } from '@gathercast/contract';
import type { ControlNotice } from './control/notice';

/**
 * Which of an event's connections, on every process, an envelope is for. `room`: everyone but
 * viewers (the people who are announced to each other one by one). `stage`: hosts, speakers and
 * moderators; `audience`: everyone else (a large audience's sampled chat, crowd/crowd.ts).
 */
export type Target =
  | { to: 'all' }
  | { to: 'room' }
  | { to: 'moderators' }
  | { to: 'stage' }
  | { to: 'audience' }
  | { to: 'participant'; participantId: string };

interface Addressed {
  eventId: string;
  target: Target;
  /** The event stream's number of a message envelope, assigned where it was published (set on delivery). */
  seq?: number;
}

/** A message for the target sockets: numbered in the event's stream and kept in its history. */
export interface MessageEnvelope extends Addressed {
  message: LiveServerMessage;
  action?: never;
  control?: never;
}

/** A host's decision for the target lobby waiter: let in (welcomed) or turned away (closed). */
export interface LobbyEnvelope extends Addressed {
  action: 'lobby.admit' | 'lobby.deny';
  message?: never;
  control?: never;
}

/** Participants resumed a dropped socket somewhere: leaves held for them anywhere can go quietly. */
export interface ResumedEnvelope extends Addressed {
  action: 'resumed';
  /** Who resumed (one notice for many participants; older processes sent one per participant in `target`). */
  participants?: string[];
  message?: never;
  control?: never;
}

/** Room control (live/control/notice.ts): sockets to close, the event's state to read again. */
export interface ControlEnvelope extends Addressed {
  control: ControlNotice;
  message?: never;
  action?: never;
}

/**
 * What the fan-out carries between processes (the JSON form is the same on both backends and in the
 * history): a message, or a notice to the processes (a lobby decision, a resume, room control).
 */
export type Envelope = MessageEnvelope | LobbyEnvelope | ResumedEnvelope | ControlEnvelope;

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
  /**
   * This process serves the event (a socket of it, a leave held for one): its envelopes are delivered
   * here from when the promise resolves. Each call is ended by one `release`. PostgreSQL delivers every
   * event's envelopes to every process anyway; Redis listens to the served events' channels only.
   */
  serve(eventId: string): Promise<void>;
  release(eventId: string): void;
  publish(envelope: Envelope): Promise<void>;
  /** The event's last seq (0 before its first message). */
  lastSeq(eventId: string): Promise<number>;
  /** Everything after `after`, or null when the history no longer holds all of it (trimmed or too old). */
  since(eventId: string, after: number): Promise<Backlog | null>;
  stop(): Promise<void>;
}

/** The fan-out's channel name (PostgreSQL's NOTIFY channel; in Redis's per-event channels, with the deployment's namespace). */
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
export const isNotice = (envelope: Envelope): envelope is Exclude<Envelope, MessageEnvelope> =>
  !envelope.message;

/** A backlog is whole when it holds every seq from after + 1 to lastSeq. */
export function whole(after: number, lastSeq: number, envelopes: Envelope[]): Backlog | null {
  if (after > lastSeq || envelopes.length !== lastSeq - after) return null;
  if (envelopes.some((e, i) => e.seq !== after + 1 + i)) return null;
  return { lastSeq, envelopes };
}
