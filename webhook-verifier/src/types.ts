export type {
  BroadcastLiveEvent,
  BroadcastPausedEvent,
  ClipReadyEvent,
  EventEndedEvent,
  EventPublishedEvent,
  EventStartedEvent,
  ParticipantJoinedEvent,
  ParticipantLeftEvent,
  QuestionCreatedEvent,
  RecordingReadyEvent,
  TranscriptReadyEvent,
  WebhookEvent,
  WebhookEventOf,
  WebhookEventType,
  WebhookParticipantRole,
} from '../../contract/src/webhook-events';

/** The raw request body, exactly as received: never the parsed JSON. */
export type WebhookPayload = string | ArrayBuffer | ArrayBufferView;

/** Anything with a `get(name)` method, such as the Fetch API `Headers`. */
export interface HeaderGetter {
  get(name: string): string | null | undefined;
}

/**
 * Request headers: a `Headers` instance, Node's `IncomingHttpHeaders`
 * (`req.headers`, values `string | string[]`), or a plain object (looked up case-insensitively).
 */
export type WebhookHeaders = HeaderGetter | Record<string, string | readonly string[] | null | undefined>;

/** One signing secret (`whsec_…`), or several while rotating. */
export type WebhookSecret = string | readonly string[];

export interface VerifyOptions {
  /** Largest accepted |now − t|, in seconds, in either direction. Default 300. */
  toleranceSeconds?: number;
  /** Clock returning the current time in **milliseconds** since the epoch, like `Date.now` (the default). */
  now?: () => number;
}

export interface SignInput {
  /** One secret, or several to produce one `v1=` per secret (as during rotation). */
  secret: WebhookSecret;
  /** The exact body that will be sent. */
  payload: WebhookPayload;
  /** Unix time in **seconds**. Default: now. */
  timestamp?: number;
}

/** Minimal shape of a Fetch API `Request` (Next.js route handlers, Workers, Hono, Deno, Bun). */
export interface RequestLike {
  headers: HeaderGetter;
  arrayBuffer(): Promise<ArrayBuffer>;
}
