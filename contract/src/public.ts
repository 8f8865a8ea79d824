import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, eventRoleSchema, idParams, isoTimestamp, meta, uuid } from './common';
import { eventStatuses, visibilities } from './events';
import { clipSchema, recordingSchema } from './content';
import { featureSetSchema, modalitySchema, phaseStatuses } from './phases';

const c = initContract();

const publicAccess = meta({ access: 'public' });

export const publicEventSchema = z.object({
  id: uuid,
  type: z.string(),
  title: z.string(),
  status: z.enum(eventStatuses),
  visibility: z.enum(visibilities),
  scheduledAt: isoTimestamp.nullable(),
  scheduledEndAt: isoTimestamp.nullable(),
  allowAnonymousVoting: z.boolean(),
  allowAnonymousQuestions: z.boolean(),
  description: z.string().nullable().describe('metadata.description, when it is a string'),
  phases: z.array(
    z.object({
      id: uuid,
      position: z.number().int(),
      modality: modalitySchema,
      status: z.enum(phaseStatuses),
      featureSet: featureSetSchema,
      startedAt: isoTimestamp.nullable(),
      endsAt: isoTimestamp.nullable(),
    }),
  ),
  cast: z.array(z.object({ name: z.string(), role: eventRoleSchema })).describe('Hosts and speakers: names only'),
  activeBroadcast: z
    .object({ broadcastId: uuid, status: z.enum(['live', 'paused']), playbackUrl: z.string() })
    .nullable(),
});

export const speakerStatSchema = z.object({
  name: z.string().nullable(),
  userId: z.string().nullable(),
  words: z.number().int(),
  turns: z.number().int(),
  talkSeconds: z.number(),
});

export const summarySchema = z.object({ text: z.string(), speakers: z.array(speakerStatSchema), generatedAt: isoTimestamp });

export const tableNotesSchema = z
  .object({
    event: z.object({ id: z.string(), title: z.string(), scheduledAt: isoTimestamp.nullable() }).passthrough(),
    table: z.object({ roomId: z.string(), number: z.number().int(), label: z.string() }).passthrough(),
    recipientUserId: z.string(),
    recipientName: z.string().nullable(),
    summary: z
      .object({
        tldr: z.string(),
        themes: z.array(z.object({ title: z.string(), summary: z.string() }).passthrough()),
        ideas: z.array(z.string()),
        questions: z.array(z.string()),
        perQuestion: z.array(
          z
            .object({ ordinal: z.number().int(), question: z.string(), discussed: z.boolean(), summary: z.string() })
            .passthrough(),
        ),
      })
      .passthrough(),
    stats: z
      .object({
        totalWords: z.number().int(),
        promptsCovered: z.number().int(),
        promptsTotal: z.number().int(),
        lifetimeSeconds: z.number().int(),
        headcount: z.number().int(),
      })
      .passthrough()
      .nullable(),
    people: z.array(
      z
        .object({
          userId: z.string(),
          name: z.string().nullable(),
          words: z.number().int(),
          turns: z.number().int(),
          badges: z.array(
            z
              .object({
                id: z.string(),
                name: z.string(),
                description: z.string(),
                tier: z.number().int(),
                icon: z.string(),
                glyph: z.string().optional(),
              })
              .passthrough(),
          ),
        })
        .passthrough(),
    ),
    generatedAt: isoTimestamp,
  })
  .passthrough();

const eventContext = z.object({ id: uuid, title: z.string(), scheduledAt: isoTimestamp.nullable() });

export const helpChatBody = z
  .object({
    messages: z
      .array(
        z.discriminatedUnion('role', [
          z.object({ role: z.literal('user'), text: z.string().min(1).max(500) }).strict(),
          z.object({ role: z.literal('model'), text: z.string().min(1).max(2200) }).strict(),
        ]),
      )
      .min(1)
      .max(8)
      // The reply answers the latest user turn, so a conversation without one has nothing to answer.
      .refine((messages) => messages.some((m) => m.role === 'user'), {
        message: 'Must contain at least one user message',
      }),
    audience: z.enum(['host', 'viewer']).optional(),
    surface: z.enum(['room', 'dashboard']).optional(),
    eventType: z.string().min(1).max(40).optional(),
    stage: z.enum(['prelive', 'open', 'live', 'ended']).optional(),
  })
  .strict();

export const publicContract = c.router(
  {
    getEvent: {
      method: 'GET',
      path: '/v1/public/events/:id',
      pathParams: idParams,
      responses: { 200: publicEventSchema },
      metadata: publicAccess,
      summary: 'Public event view: phases, on-stage cast, active broadcast',
      description:
        'The public view of a published event: agenda, who is on stage, and the active broadcast. Drafts are never shown; private events only to a workspace session of their workspace.',
    },
    tableSummary: {
      method: 'GET',
      path: '/v1/public/events/:id/table-summary',
      pathParams: idParams,
      query: z.object({ t: z.string().min(1).max(500) }),
      responses: { 200: tableNotesSchema },
      metadata: publicAccess,
      summary: 'One table’s notes, with the token from the table-notes email',
      description:
        'The notes of one breakout table, read with the token `t` from the table-notes email. A wrong token answers 404, like an unknown event.',
    },
    recap: {
      method: 'GET',
      path: '/v1/public/events/:id/recap',
      pathParams: idParams,
      responses: {
        200: z.object({
          event: eventContext,
          recording: recordingSchema.nullable(),
          clips: z.array(clipSchema),
          summary: summarySchema.nullable(),
        }),
      },
      metadata: publicAccess,
      summary: 'Latest recording, clips and AI summary',
      description:
        'After an event: its latest recording, its clips and the AI summary (null until a transcript produced one).',
    },
    content: {
      method: 'GET',
      path: '/v1/public/events/:id/content',
      pathParams: idParams,
      responses: {
        200: z.object({
          event: eventContext,
          recordings: z.array(recordingSchema),
          clips: z.array(clipSchema),
          transcripts: z.array(z.object({ id: uuid, createdAt: isoTimestamp })),
          summary: summarySchema.nullable(),
          cast: z.array(z.object({ name: z.string(), role: eventRoleSchema })),
        }),
      },
      metadata: publicAccess,
      summary: 'Post-event content: recordings, derivations, generated media, cast',
      description:
        'Everything produced for a published event: recordings, transcripts and what was derived from them, generated media, and the cast.',
    },
    asset: {
      method: 'GET',
      path: '/v1/public/assets/:id',
      pathParams: idParams,
      responses: {
        200: z.object({
          kind: z.enum(['recording', 'clip']),
          recording: recordingSchema.nullable(),
          clip: clipSchema.nullable(),
          event: eventContext,
        }),
      },
      metadata: publicAccess,
      summary: 'A clip or recording with its event context',
      description:
        'One clip or recording, with the event it belongs to, for sharing pages.',
    },
    register: {
      method: 'POST',
      path: '/v1/public/events/:id/register',
      pathParams: idParams,
      body: z
        .object({ name: z.string().trim().min(1).max(200), email: z.string().trim().min(3).max(320).email() })
        .strict(),
      responses: { 200: z.object({ registered: z.boolean(), alreadyRegistered: z.boolean() }) },
      metadata: meta({ ...publicAccess, errors: ['forbidden', 'invalid_state', 'event_full'] }),
      summary: 'Register for an event; the confirmation email carries the entry link',
      description:
        'Registers a person for a published event; the confirmation email carries a single-use entry link. Registering again with the same email answers `alreadyRegistered: true`. An event at capacity answers 409 `event_full`; an ended one 409 `invalid_state`; private events cannot be self-registered for (403).',
    },
    enter: {
      method: 'POST',
      path: '/v1/public/events/:id/enter',
      pathParams: idParams,
      body: z.object({ token: z.string().min(1).max(500) }).strict(),
      responses: { 200: z.object({ sessionToken: z.string(), eventId: uuid, name: z.string().nullable() }) },
      metadata: meta({ ...publicAccess, errors: ['invalid_token'] }),
      summary: 'Exchange a registration-entry token for an entry session',
      description:
        'Exchanges the single-use token from a registration email for an entry session (`gce_`), which joins the event’s live gateway as the registered person.',
    },
    helpChat: {
      method: 'POST',
      path: '/v1/help/chat',
      body: helpChatBody,
      responses: { 200: z.object({ reply: z.string() }) },
      // Conversations are not stored, not even as an idempotent answer.
      metadata: meta({ access: 'public', replayable: false, errors: ['rate_limited'] }),
      summary: 'Answer the latest user turn from the product FAQ (rate-limited)',
      description:
        'Answers the latest user turn of a short conversation from the product FAQ. Nothing is stored or broadcast. Limited to 20 requests per minute per client address (`RateLimit-*` headers; 429 with `Retry-After` past it).',
    },
  },
  { commonResponses: commonErrors },
);

export const devContract = c.router(
  {
    mailbox: {
      method: 'GET',
      path: '/v1/dev/mailbox',
      query: z.object({ to: z.string().max(320).optional() }),
      responses: {
        200: z.object({
          emails: z.array(
            z.object({
              id: z.string(),
              to: z.string(),
              subject: z.string(),
              text: z.string(),
              html: z.string(),
              links: z.array(z.string()),
              sentAt: isoTimestamp,
            }),
          ),
        }),
      },
      metadata: publicAccess,
      summary: 'Emails kept in email dev mode, newest first (needs x-platform-key)',
    },
  },
  { commonResponses: commonErrors },
);
