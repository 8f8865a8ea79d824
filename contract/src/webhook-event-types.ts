// Webhook event bodies as TypeScript types: the base fields of every delivery, then each type's own
// fields (docs/webhooks.md). Every delivery body is flat: the base fields plus the fields of its type.
// Written out by hand (not inferred from the schemas in webhook-events.ts) so that packages needing
// only the types, like the webhook verifier, can inline them without a runtime dependency; a
// compile-time check in webhook-events.ts keeps types and schemas in step. Nothing is imported here.
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
  'event.updated',
  'event.canceled',
  'event.deleted',
  'event.attendance_ready',
  'registration.created',
  'registration.updated',
  'participant.removed',
  'participant.banned',
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookParticipantRoles = [
  'host',
  'speaker',
  'participant',
  'viewer',
  'workspace_admin',
] as const;
export type WebhookParticipantRole = (typeof webhookParticipantRoles)[number];

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
  /**
   * Its number in the workspace's sequence: 1, 2, 3, … in commit order with no gaps, so a receiver
   * that sees a jump knows it missed one (and reads it from `GET /v1/event-log`). 0 for test sends.
   */
  sequence: number;
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

export type EventUpdatedEvent = WebhookEventBase<'event.updated'> & {
  /** The event fields the update changed, as the API names them (e.g. `scheduledAt`). */
  changedFields: string[];
};
export type EventCanceledEvent = WebhookEventBase<'event.canceled'>;
export type EventDeletedEvent = WebhookEventBase<'event.deleted'>;
export type EventAttendanceReadyEvent = WebhookEventBase<'event.attendance_ready'> & {
  uniqueAttendees: number;
  peakConcurrent: number;
};
/** Registration statuses, as in the API. */
export type WebhookRegistrationStatus =
  | 'registered'
  | 'pending_approval'
  | 'waitlisted'
  | 'canceled'
  | 'attended';
export type RegistrationCreatedEvent = WebhookEventBase<'registration.created'> & {
  registrationId: string;
  status: WebhookRegistrationStatus;
};
export type RegistrationUpdatedEvent = WebhookEventBase<'registration.updated'> & {
  registrationId: string;
  status: WebhookRegistrationStatus;
  /** What happened: approved, waitlisted (approved at capacity), promoted (from the waiting list), canceled. */
  change: 'approved' | 'waitlisted' | 'promoted' | 'canceled';
};
interface SanctionFields {
  participantId: string;
  /** Set when the participant is a workspace user. */
  userId?: string;
  reason: string | null;
  /** Who acted: `api` (an API key or a member over REST) or the host's participantId on the live gateway. */
  by: string;
}
export type ParticipantRemovedEvent = WebhookEventBase<'participant.removed'> & SanctionFields;
export type ParticipantBannedEvent = WebhookEventBase<'participant.banned'> &
  SanctionFields & {
    /** Whether the ban also covers the client address the participant was connected from. */
    clientAddress: boolean;
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
  | QuestionCreatedEvent
  | EventUpdatedEvent
  | EventCanceledEvent
  | EventDeletedEvent
  | EventAttendanceReadyEvent
  | RegistrationCreatedEvent
  | RegistrationUpdatedEvent
  | ParticipantRemovedEvent
  | ParticipantBannedEvent;

/** The body of one event type, e.g. `WebhookEventOf<'participant.joined'>`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
