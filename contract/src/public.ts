import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, eventRoleSchema, idParams, isoTimestamp, meta, uuid } from './common';
import { clipSchema, recordingSchema } from './content';
import {
  eventContext,
  helpChatBody,
  publicEventSchema,
  summarySchema,
  tableNotesSchema,
} from './public-schemas';
import { registrationAnswersSchema, registrationStatuses } from './registrations';

const c = initContract();

const publicAccess = meta({ access: 'public' });

// Its answers and bodies: public-schemas.ts.
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
      description: 'One clip or recording, with the event it belongs to, for sharing pages.',
    },
    register: {
      method: 'POST',
      path: '/v1/public/events/:id/register',
      pathParams: idParams,
      body: z
        .object({
          name: z.string().trim().min(1).max(200),
          email: z.string().trim().min(3).max(320).email(),
          answers: registrationAnswersSchema
            .optional()
            .describe('Answers to the event’s registration questions'),
        })
        .strict(),
      responses: {
        200: z.object({
          registered: z.boolean().describe('true when the registration holds a seat (status `registered`)'),
          alreadyRegistered: z.boolean(),
          registrationId: uuid,
          status: z.enum(registrationStatuses),
          joinUrl: z
            .string()
            .nullable()
            .describe('Personal single-use join link; null when already registered (a fresh one is emailed)'),
          calendarUrl: z.string().describe('The registration’s .ics'),
        }),
      },
      metadata: meta({ ...publicAccess, errors: ['forbidden', 'invalid_state', 'event_full', 'rate_limited'] }),
      summary: 'Register for an event; answers the registration id and personal join link',
      description:
        'Registers a person for a published event, with answers to its registration questions (checked: 400 `bad_request` names each wrong answer). The answer carries the registration id, its status (`registered`, `pending_approval` when a member approves registrations, `waitlisted` when the event is full and keeps a waiting list), the personal single-use join link and the calendar file; the confirmation email carries the link and an .ics invite too. Registering again with the same email answers `alreadyRegistered: true` and emails a fresh link (the answer then carries none: whoever knows an email must not get its owner’s link). A full event without a waiting list answers 409 `event_full`; an ended one 409 `invalid_state`; private events cannot be self-registered for (403).' +
        ' Limited per client address and per email address (docs/limits.md); the `RateLimit-*` headers tell how many are left, and past a limit the call answers 429 `rate_limited` with `Retry-After`.',
    },
    enter: {
      method: 'POST',
      path: '/v1/public/events/:id/enter',
      pathParams: idParams,
      body: z.object({ token: z.string().min(1).max(500) }).strict(),
      responses: { 200: z.object({ sessionToken: z.string(), eventId: uuid, name: z.string().nullable() }) },
      metadata: meta({ ...publicAccess, errors: ['invalid_token', 'invalid_state'] }),
      summary: 'Exchange a registration-entry token for an entry session',
      description:
        'Exchanges the single-use token from a registration email for an entry session (`gce_`), which joins the event’s live gateway as the registered person. A registration without a seat (pending approval, waitlisted, canceled) answers 409 `invalid_state` and keeps the token.',
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
              attachments: z
                .array(z.object({ filename: z.string(), contentType: z.string(), content: z.string() }))
                .describe('Attached files (e.g. the .ics invite), as text'),
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
