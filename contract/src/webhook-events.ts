// Webhook event bodies as schemas (docs/webhooks.md): parse a delivery body with webhookEventSchema.
// Their TypeScript types are written out by hand in webhook-event-types.ts (re-exported here); a
// compile-time check at the end keeps types and schemas in step.
// The only imports allowed here are the schema library and the hand-written types.
import { z } from 'zod';
import {
  type WebhookEvent,
  type WebhookEventType,
  webhookEventTypes,
  webhookParticipantRoles,
} from './webhook-event-types';

export * from './webhook-event-types';

export const webhookEventTypeSchema = z.enum(webhookEventTypes);
export const webhookParticipantRoleSchema = z.enum(webhookParticipantRoles);

const baseFields = {
  id: z.string().uuid(),
  workspaceId: z.string(),
  eventId: z.string(),
  occurredAt: z.string().datetime({ offset: true }),
  sequence: z.number().int().min(0),
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

export const eventUpdatedEventSchema = z.object({
  ...baseFields,
  type: z.literal('event.updated'),
  changedFields: z.array(z.string()),
});
export const eventCanceledEventSchema = z.object({ ...baseFields, type: z.literal('event.canceled') });
export const eventDeletedEventSchema = z.object({ ...baseFields, type: z.literal('event.deleted') });
export const eventAttendanceReadyEventSchema = z.object({
  ...baseFields,
  type: z.literal('event.attendance_ready'),
  uniqueAttendees: z.number().int(),
  peakConcurrent: z.number().int(),
});
const registrationStatusSchema = z.enum([
  'registered',
  'pending_approval',
  'waitlisted',
  'canceled',
  'attended',
]);
export const registrationCreatedEventSchema = z.object({
  ...baseFields,
  type: z.literal('registration.created'),
  registrationId: z.string(),
  status: registrationStatusSchema,
});
export const registrationUpdatedEventSchema = z.object({
  ...baseFields,
  type: z.literal('registration.updated'),
  registrationId: z.string(),
  status: registrationStatusSchema,
  change: z.enum(['approved', 'waitlisted', 'promoted', 'canceled']),
});
const sanctionFields = {
  participantId: z.string(),
  userId: z.string().optional(),
  reason: z.string().nullable(),
  by: z.string(),
};
export const participantRemovedEventSchema = z.object({
  ...baseFields,
  type: z.literal('participant.removed'),
  ...sanctionFields,
});
export const participantBannedEventSchema = z.object({
  ...baseFields,
  type: z.literal('participant.banned'),
  ...sanctionFields,
  clientAddress: z.boolean(),
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
  eventUpdatedEventSchema,
  eventCanceledEventSchema,
  eventDeletedEventSchema,
  eventAttendanceReadyEventSchema,
  registrationCreatedEventSchema,
  registrationUpdatedEventSchema,
  participantRemovedEventSchema,
  participantBannedEventSchema,
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
  'event.updated': eventUpdatedEventSchema,
  'event.canceled': eventCanceledEventSchema,
  'event.deleted': eventDeletedEventSchema,
  'event.attendance_ready': eventAttendanceReadyEventSchema,
  'registration.created': registrationCreatedEventSchema,
  'registration.updated': registrationUpdatedEventSchema,
  'participant.removed': participantRemovedEventSchema,
  'participant.banned': participantBannedEventSchema,
} as const satisfies Record<WebhookEventType, z.ZodTypeAny>;

// Compile-time guard: the hand-written types and the schemas must describe the same bodies.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
export type WebhookEventSchemaMatchesTypes = Expect<
  Exactly<z.infer<typeof webhookEventSchema>, WebhookEvent>
>;
