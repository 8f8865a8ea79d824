// Placeholder until the verifier branch lands the full payload schemas.
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
