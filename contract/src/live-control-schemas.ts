import { z } from 'zod';
import { eventRoleSchema, isoTimestamp, uuid } from './common';

/** The live control API's bodies and answers (its routes: live-control.ts). */

/** Who a server-minted token or join link is for: a workspace user (by id, or by externalSub, upserted) or an ad-hoc identity. */
const userRef = z.union([
  z.object({ id: uuid }).strict(),
  z
    .object({
      externalSub: z.string().trim().min(1).max(255),
      name: z.string().trim().min(1).max(200).optional().describe('Stored on the user (created when new)'),
    })
    .strict(),
]);
const adHocIdentity = z
  .object({
    id: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9._~@-]+$/, 'letters, digits and . _ ~ @ - only')
      .describe('Your id for this person; the participantId is `ext:<id>`'),
    name: z.string().trim().min(1).max(200).nullable().optional(),
  })
  .strict();

export const holderBody = z
  .object({
    user: userRef.optional(),
    identity: adHocIdentity.optional(),
    registration: z
      .object({ id: uuid })
      .strict()
      .optional()
      .describe('A registrant of this event: the participantId is `entry:<id>`, as with their entry link'),
    role: eventRoleSchema
      .optional()
      .describe(
        'A role the caller could grant on this event; default: the user’s stored role (audience without one)',
      ),
  })
  .strict()
  .refine((b) => [b.user, b.identity, b.registration].filter((h) => h !== undefined).length === 1, {
    message: 'exactly one of user, identity or registration is required',
    path: ['user'],
  });

export const liveTokenSchema = z.object({
  token: z.string().describe('Opens GET /v1/live?token=…; valid 5 minutes, for this event only'),
  expiresAt: isoTimestamp,
  url: z.string().describe('The live gateway WebSocket URL with the token'),
  role: eventRoleSchema.describe('The role narrowed to the governing phase'),
  storedRole: eventRoleSchema.describe('The role before narrowing: what later phases read again'),
  participantId: z.string(),
  userId: uuid.nullable(),
  anonymous: z.boolean(),
});

export const joinLinkSchema = z.object({
  id: uuid,
  eventId: uuid,
  participantId: z.string(),
  userId: uuid.nullable(),
  role: eventRoleSchema
    .nullable()
    .describe('The role named at creation; null: the user’s stored role when opened'),
  joinUrl: z.string().describe('Open without credentials (GET): answers a fresh gateway token. Shown once'),
  createdAt: isoTimestamp,
});

export const joinLinkListItemSchema = joinLinkSchema
  .omit({ joinUrl: true })
  .extend({
    name: z
      .string()
      .nullable()
      .describe('The name the link was made with (a user’s current name is read when opened)'),
    registrationId: uuid.nullable(),
    revokedAt: isoTimestamp.nullable().describe('null: the link still opens'),
  })
  .describe('A join link as listed: its URL is not shown again (only its hash is kept)');

export const liveRoomParticipantSchema = z.object({
  participantId: z.string(),
  userId: uuid.nullable(),
  name: z.string().nullable(),
  role: eventRoleSchema,
  anonymous: z.boolean(),
  muted: z.boolean(),
});

export const chatModes = ['open', 'audience_locked', 'moderators_only'] as const;
export const chatModeSchema = z.enum(chatModes);
export type ChatMode = z.infer<typeof chatModeSchema>;

export const liveRoomSettingsSchema = z.object({
  chatMode: chatModeSchema.describe(
    '`open`: everyone chats; `audience_locked`: viewers and participants cannot; `moderators_only`: only hosts and workspace admins',
  ),
  slowModeSeconds: z
    .number()
    .int()
    .min(0)
    .max(3600)
    .describe('Minimum gap between two chat lines of one sender; 0: none'),
  setForEvent: z
    .boolean()
    .describe('Set over REST or by a host for the rest of the event (else the phase config’s)'),
});

/** user:<id>, guest:<id>, entry:<id>, anon:<id> or ext:<your id> (see the token's participantId). */
export const participantIdSchema = z
  .string()
  .max(200)
  .regex(
    /^(user|guest|entry|anon|ext):[A-Za-z0-9._~@-]+$/,
    'a participantId such as user:<uuid> or anon:<uuid>',
  );
