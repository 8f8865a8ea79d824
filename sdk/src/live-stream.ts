import { liveServerMessageTypeNames } from '@gathercast/contract';
import type { LiveServerMessage } from './generated/api';
import type { LivePayload, LiveWelcome, LiveEventName as Name } from './live-types';

type Listener = (payload: unknown) => void;

/** Own chat lines remembered until their batch copy arrives (a batch interval is at most a second). */
const maxOwnLines = 100;

/**
 * What a LiveConnection's listeners see: one stream over every socket it dials, each message once and
 * in order. A replayed or repeated message (seq at or below the last handed on) is dropped, a `batch`
 * frame is handed on as the messages in it, and the first welcome's messages are held until `open()`'s
 * caller could subscribe.
 */
export class LiveMessageStream {
  readonly #listeners = new Map<string, Set<Listener>>();
  /** The highest seq handed on: a replayed or repeated message at or below it is dropped. */
  lastSeq = 0;
  /** Messages that arrived with the first `welcome`, handed on once `open()`'s caller could subscribe. */
  #holding: LiveServerMessage[] | undefined = [];
  /** The `resume_failed` error after a reset is reported as `reset`, not as an `error` message. */
  #swallowResumeFailed = false;
  /** Ids of this connection's own chat lines echoed to it at once, not handed on again from a batch. */
  readonly #ownLines = new Set<string>();

  on<T extends Name>(type: T, listener: (payload: LivePayload<T>) => void): () => void {
    const set = this.#listeners.get(type) ?? new Set<Listener>();
    this.#listeners.set(type, set);
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  emit(type: string, payload: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(payload);
  }

  /** Whether the message is new to the listeners (moving the stream's position past it if so). */
  advance(message: LiveServerMessage): boolean {
    if (message.seq !== undefined) {
      if (message.seq <= this.lastSeq) return false;
      this.lastSeq = message.seq;
    }
    return true;
  }

  /**
   * The welcome of a reconnect (`was`: whether it asked to resume, and from where): `resumed` when the
   * gateway replays what was missed, else `reset` and the stream goes on from the welcome's position.
   */
  reconnected(
    before: LiveWelcome,
    welcome: LiveWelcome,
    was: { asked: boolean; after: number },
    downtimeMs: number,
  ): void {
    if (welcome.resumed) this.emit('resumed', { ...welcome.resumed, downtimeMs });
    else {
      this.lastSeq = welcome.lastSeq;
      this.#swallowResumeFailed = was.asked;
      const reason = was.asked ? 'resume_failed' : 'window_elapsed';
      this.emit('reset', { reason, after: was.after, lastSeq: welcome.lastSeq, downtimeMs });
    }
    // `phase.changed` goes to each socket with its own grant and is not replayed: the new welcome
    // holds the current phase, so a change made while away still reaches the listeners, once.
    const phaseId = (w: LiveWelcome) => w.activePhase?.id ?? null;
    if (before.event.status !== welcome.event.status || phaseId(before) !== phaseId(welcome))
      this.accept({
        type: 'phase.changed',
        eventStatus: welcome.event.status,
        activePhaseId: phaseId(welcome),
        media: welcome.media,
      });
  }

  /** A new message: handed on, or held while the first welcome's messages are. */
  accept(message: LiveServerMessage): void {
    if (this.#swallowResumeFailed && message.type === 'error' && message.code === 'resume_failed') {
      this.#swallowResumeFailed = false;
      return;
    }
    if (this.#holding) this.#holding.push(message);
    else this.#handOn(message);
  }

  /** Hands on the messages held since the first welcome; from now on every message goes at once. */
  release(): void {
    const held = this.#holding ?? [];
    this.#holding = undefined;
    for (const message of held) this.#handOn(message);
  }

  /**
   * A `batch` frame (a large audience's activity of one interval) is handed on as the messages in it,
   * each to its own type's listeners and to `message`, as if each had come alone; `batch` listeners
   * see the frame itself. A chat line this connection sent was echoed to it at once: its copy in the
   * frame (same `id`) is not handed on again.
   */
  #handOn(message: LiveServerMessage): void {
    if (message.type === 'batch') {
      this.emit('batch', message);
      for (const inner of message.messages) {
        if (inner.type === 'chat.message' && inner.id && this.#ownLines.delete(inner.id)) continue;
        this.#deliver(inner);
      }
      return;
    }
    // Fanned-out lines carry a seq; a line without one is this connection's own, echoed at once.
    if (message.type === 'chat.message' && message.id && message.seq === undefined)
      this.#rememberOwnLine(message.id);
    this.#deliver(message);
  }

  #deliver(message: LiveServerMessage): void {
    this.emit(message.type, message);
    this.emit('message', message);
  }

  #rememberOwnLine(id: string): void {
    this.#ownLines.add(id);
    if (this.#ownLines.size > maxOwnLines) this.#ownLines.delete(this.#ownLines.values().next().value!);
  }
}

const utf8 = new TextDecoder();
/**
 * The gateway's messages are built from the same contract as this SDK (and its tests check every one
 * against it), so a message is not validated field by field: that cost 12 µs a message, five times the
 * JSON parse, which a client following a busy event pays on every chat line. Only its type is checked:
 * a type this SDK version does not know (a newer gateway's) is ignored.
 */
const knownTypes: ReadonlySet<string> = new Set(liveServerMessageTypeNames);

export function parseServerMessage(data: unknown): LiveServerMessage | undefined {
  if (typeof data !== 'string') {
    if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) data = utf8.decode(data);
    else return undefined;
  }
  try {
    const message = JSON.parse(data as string) as { type?: unknown } | null;
    return typeof message?.type === 'string' && knownTypes.has(message.type)
      ? (message as LiveServerMessage)
      : undefined;
  } catch {
    return undefined;
  }
}
