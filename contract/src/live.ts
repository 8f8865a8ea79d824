import { z } from 'zod';
import { eventRoleSchema, uuid } from './common';
import { eventStatuses } from './events';
import { modalitySchema, phaseStatuses } from './phases';

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

export const liveServerMessageSchema = z.discriminatedUnion('type', [
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
  }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), code: z.string(), detail: z.string() }),
  z.object({ type: z.literal('presence.joined'), participant: liveParticipantSchema }),
  z.object({ type: z.literal('presence.left'), participantId: z.string() }),
  z.object({
    type: z.literal('question.created'),
    question: z.object({ id: uuid, text: z.string(), authorName: z.string().nullable(), votes: z.number().int() }),
  }),
  z.object({ type: z.literal('question.updated'), questionId: uuid, votes: z.number().int(), status: z.string() }),
  z.object({ type: z.literal('chat.message'), from: liveParticipantSchema, text: z.string(), sentAt: z.string() }),
  z.object({ type: z.literal('reaction'), emoji: z.string(), participantId: z.string() }),
  z.object({ type: z.literal('hand.raised'), participantId: z.string() }),
  z.object({ type: z.literal('hand.lowered'), participantId: z.string() }),
  z.object({ type: z.literal('banner'), text: z.string().nullable() }),
  z.object({ type: z.literal('announcement'), text: z.string() }),
  z.object({
    type: z.literal('poll'),
    pollId: uuid,
    question: z.string(),
    options: z.array(z.string()),
    counts: z.array(z.number().int()),
    closed: z.boolean(),
  }),
  z.object({ type: z.literal('lobby.waiting'), participant: liveParticipantSchema }),
  z.object({
    type: z.literal('lobby.admitted'),
    media: mediaGrantSchema.describe('The media grant the admitted participant now holds'),
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
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;
