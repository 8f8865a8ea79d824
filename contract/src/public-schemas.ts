import { z } from 'zod';
import { eventRoleSchema, isoTimestamp, uuid } from './common';
import { eventStatuses, visibilities } from './events';
import { featureSetSchema, modalitySchema, phaseStatuses } from './phases';
import { registrationQuestionSchema } from './registrations';

/** The public (unauthenticated) API's answers and bodies; its routes: public.ts. */
export const publicEventSchema = z.object({
  id: uuid,
  type: z.string(),
  title: z.string(),
  status: z.enum(eventStatuses),
  visibility: z.enum(visibilities),
  scheduledAt: isoTimestamp.nullable(),
  scheduledEndAt: isoTimestamp.nullable(),
  timezone: z.string().describe('IANA time zone the event is presented in'),
  canceledAt: isoTimestamp.nullable(),
  registrationForm: z
    .object({
      questions: z.array(registrationQuestionSchema),
      requiresApproval: z.boolean(),
      waitlist: z.boolean(),
    })
    .describe('What the registration form asks'),
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
  cast: z
    .array(z.object({ name: z.string(), role: eventRoleSchema }))
    .describe('Hosts and speakers: names only'),
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

export const summarySchema = z.object({
  text: z.string(),
  speakers: z.array(speakerStatSchema),
  generatedAt: isoTimestamp,
});

export const tableNotesSchema = z
  .object({
    event: z
      .object({ id: z.string(), title: z.string(), scheduledAt: isoTimestamp.nullable() })
      .passthrough(),
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
            .object({
              ordinal: z.number().int(),
              question: z.string(),
              discussed: z.boolean(),
              summary: z.string(),
            })
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

export const eventContext = z.object({ id: uuid, title: z.string(), scheduledAt: isoTimestamp.nullable() });

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
