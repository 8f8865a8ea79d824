import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, idParams, isoTimestamp, meta, uuid } from './common';
import { chatModeSchema } from './live-control-schemas';

const c = initContract();

export const modalities = ['broadcast', 'meeting', 'breakout', 'rotation'] as const;
export const modalitySchema = z.enum(modalities);
export type Modality = z.infer<typeof modalitySchema>;

export const features = ['qa', 'chat', 'polls', 'reactions', 'transcript', 'capture'] as const;
export type Feature = (typeof features)[number];
export const featureSetSchema = z.array(z.enum(features)).max(features.length);

export const phaseStatuses = ['pending', 'active', 'ended'] as const;

/** Per-modality config. Breakout and rotation timers never advance the agenda by themselves. */
/** The phase's chat rules (docs/live.md): a host's or the API's setting for the event wins over them. */
export const phaseChatConfigSchema = z
  .object({
    mode: chatModeSchema.optional().describe('Default `open`'),
    slowModeSeconds: z
      .number()
      .int()
      .min(0)
      .max(3600)
      .optional()
      .describe('Minimum gap per sender; default 0'),
  })
  .strict();
const chat = phaseChatConfigSchema.optional();
export const broadcastConfigSchema = z.object({ chat }).strict();
export const meetingConfigSchema = z.object({ chat }).strict();
export const breakoutConfigSchema = z
  .object({
    roomSize: z.number().int().min(2).max(50).default(4).describe('People per table'),
    durationSeconds: z.number().int().min(60).max(14_400).nullable().optional().describe('Timer; null for none'),
    extendable: z.boolean().default(false).describe('Whether POST /v1/phases/{id}/extend is allowed'),
    chat,
  })
  .strict();
export const rotationConfigSchema = z
  .object({
    rounds: z.number().int().min(1).max(50),
    roundSeconds: z.number().int().min(30).max(3600),
    chat,
  })
  .strict();

export const phaseConfigSchemas = {
  broadcast: broadcastConfigSchema,
  meeting: meetingConfigSchema,
  breakout: breakoutConfigSchema,
  rotation: rotationConfigSchema,
} as const;

export const phaseInputSchema = z.discriminatedUnion('modality', [
  z.object({ modality: z.literal('broadcast'), config: broadcastConfigSchema.optional(), featureSet: featureSetSchema.optional() }),
  z.object({ modality: z.literal('meeting'), config: meetingConfigSchema.optional(), featureSet: featureSetSchema.optional() }),
  z.object({ modality: z.literal('breakout'), config: breakoutConfigSchema.optional(), featureSet: featureSetSchema.optional() }),
  z.object({ modality: z.literal('rotation'), config: rotationConfigSchema, featureSet: featureSetSchema.optional() }),
]);
export type PhaseInput = z.infer<typeof phaseInputSchema>;

export const phaseSchema = z.object({
  id: uuid,
  eventId: uuid,
  position: z.number().int(),
  modality: modalitySchema,
  status: z.enum(phaseStatuses),
  featureSet: featureSetSchema,
  config: z.record(z.string(), z.unknown()),
  startedAt: isoTimestamp.nullable(),
  endsAt: isoTimestamp.nullable().describe('When the phase timer runs out, if it has one'),
  endedAt: isoTimestamp.nullable(),
});
export type Phase = z.infer<typeof phaseSchema>;

export const phasesContract = c.router(
  {
    append: {
      method: 'POST',
      path: '/v1/events/:id/phases',
      pathParams: idParams,
      body: phaseInputSchema,
      responses: { 201: phaseSchema },
      metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context', errors: ['invalid_state'] }),
      summary: 'Append a phase to the agenda',
      description:
        'Adds a phase at the end of the event’s agenda: `broadcast`, `meeting`, `breakout` (tables of `roomSize`, optional timer) or `rotation` (`rounds` × `roundSeconds`). Not on ended events (409 `invalid_state`).',
    },
    update: {
      method: 'PATCH',
      path: '/v1/phases/:id',
      pathParams: idParams,
      body: z
        .object({
          config: z.record(z.string(), z.unknown()).optional().describe('Validated against the phase’s modality'),
          featureSet: featureSetSchema.optional(),
        })
        .strict(),
      responses: { 200: phaseSchema },
      metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context', errors: ['invalid_state'] }),
      summary: 'Update a phase’s config or feature set (modality never changes)',
      description:
        'Changes a phase’s config or feature set; the modality never changes. Phases of an ended event cannot change (409 `invalid_state`).',
    },
    extend: {
      method: 'POST',
      path: '/v1/phases/:id/extend',
      pathParams: idParams,
      body: z.object({ seconds: z.number().int().min(10).max(3600) }).strict(),
      responses: { 200: phaseSchema },
      metadata: meta({ access: 'member', scope: 'events:write', workspace: 'context', errors: ['invalid_state'] }),
      summary: 'Add seconds to the active phase’s timer',
      description:
        'Adds 10–3600 seconds to the timer of the active phase. Only the active phase, only a timed one, and for breakouts only when `config.extendable` is true; otherwise 409 `invalid_state`.',
    },
  },
  { commonResponses: commonErrors },
);
