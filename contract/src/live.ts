import { z } from 'zod';
import { eventRoleSchema, uuid } from './common';
import { eventStatuses } from './events';
import { modalitySchema, phaseStatuses } from './phases';
import { type LiveErrorCode, liveErrorCodes } from './live-codes';
import { chatModeSchema, participantIdSchema } from './live-control-schemas';

/**
 * Live gateway messages (WebSocket at GET /v1/live?token=<gateway token>). Every message is `{ type, ... }`.
 * The first server message is always `welcome`.
 */
const text = z.string().trim().min(1);

export const liveClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('question.create'), text: text.max(500) }),
  z.object({ type: z.literal('question.vote'), questionId: uuid }),
  z.object({ type: z.literal('question.answer'), questionId: uuid }),
  z.object({ type: z.literal('question.dismiss'), questionId: uuid }),
  z.object({ type: z.literal('chat.send'), text: text.max(1000) }),
  z.object({ type: z.literal('reaction.send'), emoji: z.string().min(1).max(16) }),
  z.object({ type: z.literal('hand.raise') }),
  z.object({ type: z.literal('hand.lower'), participantId: z.string().optional() }),
  z.object({ type: z.literal('banner.show'), text: text.max(280) }),
  z.object({ type: z.literal('banner.clear') }),
  z.object({ type: z.literal('announcement.send'), text: text.max(1000) }),
  z.object({ type: z.literal('poll.create'), question: text.max(280), options: z.array(text.max(100)).min(2).max(10) }),
  z.object({ type: z.literal('poll.vote'), pollId: uuid, option: z.number().int().min(0) }),
  z.object({ type: z.literal('poll.close'), pollId: uuid }),
  z.object({ type: z.literal('lobby.admit'), participantId: z.string() }),
  z.object({ type: z.literal('lobby.deny'), participantId: z.string() }),
  z.object({ type: z.literal('table.observe'), table: z.number().int().min(1) }),
  z
    .object({
      type: z.literal('audience.list'),
      cursor: z.string().max(512).optional().describe('nextCursor of the previous page; absent for the first'),
      limit: z.number().int().min(1).max(200).optional().describe('Page size, default 50'),
      requestId: z.string().max(64).optional().describe('Echoed in the audience.page answer'),
    })
    .describe('Moderators: one page of the participants present, ordered by participantId'),
  z
    .object({
      type: z.literal('participant.remove'),
      participantId: participantIdSchema,
      reason: text.max(500).optional(),
    })
    .describe('Moderators: close every socket of the participant (they may come back with a new token)'),
  z
    .object({
      type: z.literal('participant.ban'),
      participantId: participantIdSchema,
      reason: text.max(500).optional(),
      clientAddress: z.boolean().optional(),
    })
    .describe('Moderators: remove and refuse the participant for the rest of the event'),
  z.object({ type: z.literal('participant.unban'), participantId: participantIdSchema }),
  z
    .object({ type: z.literal('participant.mute'), participantId: participantIdSchema })
    .describe('Moderators: refuse the participant’s chat and questions'),
  z.object({ type: z.literal('participant.unmute'), participantId: participantIdSchema }),
  z
    .object({ type: z.literal('chat.delete'), messageId: uuid })
    .describe('Moderators: delete a chat line for everyone'),
  z
    .object({ type: z.literal('question.delete'), questionId: uuid })
    .describe('Moderators: delete a question for everyone'),
  z
    .object({
      type: z.literal('room.update'),
      chatMode: chatModeSchema.nullable().optional(),
      slowModeSeconds: z.number().int().min(0).max(3600).nullable().optional(),
    })
    .describe(
      'Moderators: chat lock and slow mode for the rest of the event (null: back to the phase config)',
    ),
]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

export const mediaGrantSchema = z.object({
  url: z.string().describe('Media server URL'),
  token: z.string().nullable().describe('Media access token; null for viewers (watch-only)'),
  room: z.string().nullable(),
  canPublish: z.boolean(),
  canSubscribe: z.boolean(),
  roomAdmin: z.boolean(),
  playbackUrl: z.string().nullable().describe('HLS playback for viewers'),
});

export const liveParticipantSchema = z.object({
  participantId: z.string(),
  name: z.string().nullable(),
  role: eventRoleSchema,
  anonymous: z.boolean(),
});

/** Participants present (distinct, across every server process) by their narrowed role. */
export const audienceCountsSchema = z.object({
  host: z.number().int(),
  speaker: z.number().int(),
  participant: z.number().int(),
  viewer: z.number().int(),
  workspace_admin: z.number().int(),
});

/*
 * Audience activity a large audience receives folded into `batch` frames (docs/live-gateway.md,
 * "Large audiences"); a small audience receives each as its own message.
 */
const questionCreatedMessage = z.object({
  type: z.literal('question.created'),
  question: z.object({
    id: uuid,
    text: z.string(),
    authorName: z.string().nullable(),
    votes: z.number().int(),
  }),
});
const questionUpdatedMessage = z.object({
  type: z.literal('question.updated'),
  questionId: uuid,
  votes: z.number().int(),
  status: z.string(),
});
const chatMessage = z.object({
  type: z.literal('chat.message'),
  id: uuid.optional().describe('The line in the event’s chat log (GET /v1/events/{id}/chat)'),
  from: liveParticipantSchema,
  text: z.string(),
  sentAt: z.string(),
});
const pollMessage = z.object({
  type: z.literal('poll'),
  pollId: uuid,
  question: z.string(),
  options: z.array(z.string()),
  counts: z.array(z.number().int()),
  closed: z.boolean(),
});
const reactionsMessage = z
  .object({
    type: z.literal('reactions'),
    reactions: z
      .array(z.object({ emoji: z.string(), count: z.number().int().positive() }))
      .describe('Reactions sent since the previous frame, counted per emoji'),
  })
  .describe('A large audience’s reactions of one interval, counted (a small audience gets each `reaction`)');

export const liveBatchedMessageSchema = z.discriminatedUnion('type', [
  questionCreatedMessage,
  questionUpdatedMessage,
  chatMessage,
  pollMessage,
  reactionsMessage,
]);
const liveResumeSchema = z.object({
  secret: z
    .string()
    .describe(
      'Pass back as ?resume= (with ?after=<last seq>) when reconnecting; it resumes nothing from before the session joined',
    ),
  windowMs: z.number().int().describe('How long the event keeps its history for a resume'),
});

const liveServerMessageTypes = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('welcome'),
    identity: liveParticipantSchema,
    event: z.object({ id: uuid, title: z.string(), status: z.enum(eventStatuses) }),
    activePhase: z
      .object({ id: uuid, position: z.number().int(), modality: modalitySchema, status: z.enum(phaseStatuses) })
      .nullable(),
    cast: z.array(z.object({ name: z.string(), role: eventRoleSchema })),
    media: mediaGrantSchema,
    lobby: z.boolean().describe('true while waiting for admission'),
    lastSeq: z
      .number()
      .int()
      .nonnegative()
      .describe('The seq this socket starts after: every fanned-out message with a higher seq follows'),
    resume: liveResumeSchema.describe(
      'How to resume this session after a dropped socket (a lobby waiter gets its own with lobby.admitted)',
    ),
    resumed: z
      .object({
        after: z.number().int().nonnegative().describe('The seq the socket resumed after'),
        replayed: z.number().int().nonnegative().describe('How many missed messages follow, before live ones'),
      })
      .nullable()
      .describe('Set when this socket resumed an earlier one; null for a fresh session'),
  }),
  z.object({ type: z.literal('pong') }),
  z.object({
    type: z.literal('error'),
    code: z.enum(liveErrorCodes as [LiveErrorCode, ...LiveErrorCode[]]),
    detail: z.string(),
  }),
  z
    .object({ type: z.literal('presence.joined'), participant: liveParticipantSchema })
    .describe('A participant other than a viewer arrived; viewers receive `audience` instead'),
  z
    .object({ type: z.literal('presence.left'), participantId: z.string() })
    .describe('A participant other than a viewer left; viewers receive `audience` instead'),
  z
    .object({
      type: z.literal('audience'),
      total: z.number().int().describe('Participants present, every role'),
      byRole: audienceCountsSchema,
    })
    .describe('Who is here, counted: right after welcome, then at most about once a second when it changed'),
  z
    .object({
      type: z.literal('audience.page'),
      requestId: z.string().nullable(),
      participants: z.array(liveParticipantSchema),
      nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
    })
    .describe('Answer to audience.list'),
  z
    .object({ type: z.literal('chat.deleted'), messageId: uuid })
    .describe('A moderator deleted this chat line'),
  z
    .object({ type: z.literal('question.deleted'), questionId: uuid })
    .describe('A moderator deleted this question'),
  z
    .object({ type: z.literal('room.settings'), chatMode: chatModeSchema, slowModeSeconds: z.number().int() })
    .describe('The chat mode and slow mode now in force (after a change)'),
  z
    .object({ type: z.literal('participant.muted'), participantId: z.string(), muted: z.boolean() })
    .describe(
      'To the participant and moderators: their chat and questions are refused (muted) or accepted again',
    ),
  z
    .object({ type: z.literal('removed'), reason: z.string().nullable(), banned: z.boolean() })
    .describe('Last message before the close (4012 removed, 4011 banned)'),
  questionCreatedMessage,
  questionUpdatedMessage,
  chatMessage,
  z.object({ type: z.literal('reaction'), emoji: z.string(), participantId: z.string() }),
  z.object({ type: z.literal('hand.raised'), participantId: z.string() }),
  z.object({ type: z.literal('hand.lowered'), participantId: z.string() }),
  z.object({ type: z.literal('banner'), text: z.string().nullable() }),
  z.object({ type: z.literal('announcement'), text: z.string() }),
  pollMessage,
  reactionsMessage,
  z
    .object({
      type: z.literal('batch'),
      messages: z.array(liveBatchedMessageSchema).describe('In order; each is handled as if sent alone'),
      chatSkipped: z
        .number()
        .int()
        .nonnegative()
        .describe(
          'Chat lines of the interval left out of this sample (hosts, speakers and moderators get all)',
        ),
    })
    .describe(
      'A large audience’s activity of one interval in one frame: the latest exact counts, chat, questions',
    ),
  z
    .object({ type: z.literal('poll.voted'), pollId: uuid, option: z.number().int() })
    .describe('To the voter at once when the poll’s counts reach a large audience in `batch` frames'),
  z
    .object({ type: z.literal('question.voted'), questionId: uuid })
    .describe('To the voter at once when the tallies reach a large audience in `batch` frames'),
  z.object({ type: z.literal('lobby.waiting'), participant: liveParticipantSchema }),
  z.object({
    type: z.literal('lobby.admitted'),
    media: mediaGrantSchema.describe('The media grant the admitted participant now holds'),
    resume: liveResumeSchema.describe(
      "The admitted session's resume secret, in place of the lobby welcome's",
    ),
  }),
  z.object({ type: z.literal('lobby.denied') }),
  z.object({
    type: z.literal('phase.changed'),
    eventStatus: z.enum(eventStatuses),
    activePhaseId: uuid.nullable(),
    media: mediaGrantSchema.nullable(),
  }),
  z.object({ type: z.literal('table.assigned'), table: z.number().int(), room: z.string(), media: mediaGrantSchema }),
  z.object({ type: z.literal('event.ended') }),
]);

/** Every server message type (a client ignores types it does not know: a newer gateway's). */
export const liveServerMessageTypeNames: readonly LiveServerMessage['type'][] = liveServerMessageTypes.options.map(
  (o) => o.shape.type.value,
);

/**
 * Every message fanned out to an event's sockets carries `seq`: per event, increasing, the same on every
 * server process (replies to one socket — `welcome`, `pong`, `error`, grants — carry none).
 */
export const liveServerMessageSchema = liveServerMessageTypes.and(
  z.object({ seq: z.number().int().positive().optional() }),
);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;
export type LiveBatchedMessage = z.infer<typeof liveBatchedMessageSchema>;
