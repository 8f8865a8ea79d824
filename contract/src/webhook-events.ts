// Webhook event bodies: the base fields of every delivery, then each type's own fields (docs/webhooks.md).
//
// Every delivery body is flat: the base fields plus the fields of its type.
// The TypeScript types are written out by hand (not inferred from the schemas) so that
// packages needing only the types, like the webhook verifier, can inline them without a
// runtime dependency; a compile-time check at the end keeps types and schemas in step.
// The only import allowed here is the schema library.
import { z } from 'zod';

export const webhookEventTypes = [
  'event.published',
  'event.started',
  'event.ended',
  'participant.joined',
  'participant.left',
  'broadcast.live',
  'broadcast.paused',
  'recording.ready',
  'transcript.ready',
  'clip.ready',
  'question.created',
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookEventTypeSchema = z.enum(webhookEventTypes);

export const webhookParticipantRoles = [
  'host',
  'speaker',
  'participant',
  'viewer',
  'workspace_admin',
] as const;
export type WebhookParticipantRole = (typeof webhookParticipantRoles)[number];
export const webhookParticipantRoleSchema = z.enum(webhookParticipantRoles);

/** Fields carried by every delivery. */
export interface WebhookEventBase<T extends WebhookEventType> {
  /** UUID of the event notification; equals the `x-gc-event-id` header. Retries reuse it. */
  id: string;
  type: T;
  workspaceId: string;
  /** The live event the notification is about. */
  eventId: string;
  /** ISO 8601 timestamp. */
  occurredAt: string;
}

interface ParticipantFields {
  participantId: string;
  /** Set for signed-in participants only. */
  userId?: string;
  anonymous: boolean;
  role: WebhookParticipantRole;
}

interface AssetFields {
  assetId: string;
}

export type EventPublishedEvent = WebhookEventBase<'event.published'>;
export type EventStartedEvent = WebhookEventBase<'event.started'>;
export type EventEndedEvent = WebhookEventBase<'event.ended'>;
export type ParticipantJoinedEvent = WebhookEventBase<'participant.joined'> & ParticipantFields;
export type ParticipantLeftEvent = WebhookEventBase<'participant.left'> & ParticipantFields;
export type BroadcastLiveEvent = WebhookEventBase<'broadcast.live'> & {
  broadcastId: string;
  playbackUrl: string;
};
export type BroadcastPausedEvent = WebhookEventBase<'broadcast.paused'> & {
  /** Not promised beyond the base fields: sent when the paused broadcast is known. */
  broadcastId?: string;
};
export type RecordingReadyEvent = WebhookEventBase<'recording.ready'> & AssetFields;
export type TranscriptReadyEvent = WebhookEventBase<'transcript.ready'> & AssetFields;
export type ClipReadyEvent = WebhookEventBase<'clip.ready'> & AssetFields;
export type QuestionCreatedEvent = WebhookEventBase<'question.created'> & {
  questionId: string;
  text: string;
};

/** Any webhook delivery body. Narrow it with `switch (event.type)`. */
export type WebhookEvent =
  | EventPublishedEvent
  | EventStartedEvent
  | EventEndedEvent
  | ParticipantJoinedEvent
  | ParticipantLeftEvent
  | BroadcastLiveEvent
  | BroadcastPausedEvent
  | RecordingReadyEvent
  | TranscriptReadyEvent
  | ClipReadyEvent
  | QuestionCreatedEvent;

/** The body of one event type, e.g. `WebhookEventOf<'participant.joined'>`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;

const baseFields = {
  id: z.string().uuid(),
  workspaceId: z.string(),
  eventId: z.string(),
  occurredAt: z.string().datetime({ offset: true }),
};

const participantFields = {
  participantId: z.string(),
  userId: z.string().optional(),
  anonymous: z.boolean(),
  role: webhookParticipantRoleSchema,
};

const assetFields = { assetId: z.string() };

export const eventPublishedEventSchema = z.object({ ...baseFields, type: z.literal('event.published') });
export const eventStartedEventSchema = z.object({ ...baseFields, type: z.literal('event.started') });
export const eventEndedEventSchema = z.object({ ...baseFields, type: z.literal('event.ended') });
export const participantJoinedEventSchema = z.object({
  ...baseFields,
  type: z.literal('participant.joined'),
  ...participantFields,
});
export const participantLeftEventSchema = z.object({
  ...baseFields,
  type: z.literal('participant.left'),
  ...participantFields,
});
export const broadcastLiveEventSchema = z.object({
  ...baseFields,
  type: z.literal('broadcast.live'),
  broadcastId: z.string(),
  playbackUrl: z.string().url(),
});
export const broadcastPausedEventSchema = z.object({
  ...baseFields,
  type: z.literal('broadcast.paused'),
  broadcastId: z.string().optional(),
});
export const recordingReadyEventSchema = z.object({
  ...baseFields,
  type: z.literal('recording.ready'),
  ...assetFields,
});
export const transcriptReadyEventSchema = z.object({
  ...baseFields,
  type: z.literal('transcript.ready'),
  ...assetFields,
});
export const clipReadyEventSchema = z.object({
  ...baseFields,
  type: z.literal('clip.ready'),
  ...assetFields,
});
export const questionCreatedEventSchema = z.object({
  ...baseFields,
  type: z.literal('question.created'),
  questionId: z.string(),
  text: z.string(),
});

/** Parses any webhook delivery body; `type` selects the schema. */
export const webhookEventSchema = z.discriminatedUnion('type', [
  eventPublishedEventSchema,
  eventStartedEventSchema,
  eventEndedEventSchema,
  participantJoinedEventSchema,
  participantLeftEventSchema,
  broadcastLiveEventSchema,
  broadcastPausedEventSchema,
  recordingReadyEventSchema,
  transcriptReadyEventSchema,
  clipReadyEventSchema,
  questionCreatedEventSchema,
]);

/** Schema of each event type, keyed by type name. */
export const webhookEventSchemas = {
  'event.published': eventPublishedEventSchema,
  'event.started': eventStartedEventSchema,
  'event.ended': eventEndedEventSchema,
  'participant.joined': participantJoinedEventSchema,
  'participant.left': participantLeftEventSchema,
  'broadcast.live': broadcastLiveEventSchema,
  'broadcast.paused': broadcastPausedEventSchema,
  'recording.ready': recordingReadyEventSchema,
  'transcript.ready': transcriptReadyEventSchema,
  'clip.ready': clipReadyEventSchema,
  'question.created': questionCreatedEventSchema,
} as const satisfies Record<WebhookEventType, z.ZodTypeAny>;

// Compile-time guard: the hand-written types and the schemas must describe the same bodies.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
export type WebhookEventSchemaMatchesTypes = Expect<
  Exactly<z.infer<typeof webhookEventSchema>, WebhookEvent>
>;
