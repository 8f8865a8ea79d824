import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, idParams, isoTimestamp, meta, noContent, paginationQuery, uuid } from './common';

const c = initContract();

export const registrationStatuses = [
  'registered',
  'pending_approval',
  'waitlisted',
  'canceled',
  'attended',
] as const;
export type RegistrationStatus = (typeof registrationStatuses)[number];

export const registrationQuestionTypes = ['text', 'single_choice', 'multiple_choice'] as const;

const option = z.string().trim().min(1).max(200);

export const registrationQuestionSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'Lowercase letters, digits, _ and -, up to 64 characters')
      .describe('Stable key of the answer in `answers`'),
    label: z.string().trim().min(1).max(500),
    type: z.enum(registrationQuestionTypes),
    required: z.boolean().default(false),
    options: z
      .array(option)
      .min(1)
      .max(50)
      .optional()
      .describe('The choices; required for choice questions, absent for text'),
  })
  .strict()
  .refine((q) => (q.type === 'text' ? q.options === undefined : q.options !== undefined), {
    message: 'Choice questions need options; text questions take none',
    path: ['options'],
  })
  .refine((q) => q.options === undefined || new Set(q.options).size === q.options.length, {
    message: 'Options must be distinct',
    path: ['options'],
  });
export type RegistrationQuestion = z.infer<typeof registrationQuestionSchema>;

/** An answer: text, one option, or several options. */
export const registrationAnswersSchema = z
  .record(z.string().max(64), z.union([z.string().max(2000), z.array(z.string().max(200)).max(50)]))
  .describe(
    'Answers by question id: a string for text and single choice, an array of options for multiple choice',
  );
export type RegistrationAnswers = z.infer<typeof registrationAnswersSchema>;

const reminderMinutes = z.number().int().min(5).max(43_200);

export const registrationSettingsSchema = z.object({
  eventId: uuid,
  questions: z.array(registrationQuestionSchema),
  requiresApproval: z
    .boolean()
    .describe('New registrations wait as `pending_approval` until a member approves them'),
  waitlist: z
    .boolean()
    .describe(
      'At capacity, new registrations join a waiting list (promoted in order) instead of 409 `event_full`',
    ),
  reminderMinutesBefore: z
    .array(reminderMinutes)
    .describe('When reminder emails go out, in minutes before `scheduledAt`'),
  updatedAt: isoTimestamp.nullable().describe('null while the defaults apply'),
});
export type RegistrationSettings = z.infer<typeof registrationSettingsSchema>;

export const updateRegistrationSettingsBody = z
  .object({
    questions: z
      .array(registrationQuestionSchema)
      .max(30)
      .refine((qs) => new Set(qs.map((q) => q.id)).size === qs.length, 'Question ids must be distinct')
      .optional(),
    requiresApproval: z.boolean().optional(),
    waitlist: z.boolean().optional(),
    reminderMinutesBefore: z
      .array(reminderMinutes)
      .max(5)
      .refine((ms) => new Set(ms).size === ms.length, 'Reminder times must be distinct')
      .optional(),
  })
  .strict();

export const registrationSchema = z.object({
  id: uuid,
  eventId: uuid,
  name: z.string(),
  email: z.string(),
  status: z.enum(registrationStatuses),
  answers: registrationAnswersSchema,
  waitlistPosition: z
    .number()
    .int()
    .nullable()
    .describe('1 for the next to be promoted; null unless waitlisted'),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  approvedAt: isoTimestamp.nullable(),
  canceledAt: isoTimestamp.nullable(),
  attendedAt: isoTimestamp.nullable(),
});
export type Registration = z.infer<typeof registrationSchema>;

const registrationParams = z.object({ id: uuid, registrationId: uuid });
const memberAccess = (
  scope: 'registrations:read' | 'registrations:write',
  errors: ('invalid_state' | 'event_full')[] = [],
) => meta({ access: 'member', scope, workspace: 'context', errors });

export const registrationsContract = c.router(
  {
    getSettings: {
      method: 'GET',
      path: '/v1/events/:id/registration-settings',
      pathParams: idParams,
      responses: { 200: registrationSettingsSchema },
      metadata: memberAccess('registrations:read'),
      summary: 'Registration form, approval, waitlist and reminder times of an event',
      description:
        'The custom questions of the registration form, whether a member approves each registration, whether a full event keeps a waiting list, and when reminders are emailed. Unset, no questions, no approval, no waitlist, reminders 24 h and 1 h before.',
    },
    updateSettings: {
      method: 'PUT',
      path: '/v1/events/:id/registration-settings',
      pathParams: idParams,
      body: updateRegistrationSettingsBody,
      responses: { 200: registrationSettingsSchema },
      metadata: memberAccess('registrations:write'),
      summary: 'Set the registration form, approval, waitlist and reminder times',
      description:
        'Changes the fields given. Questions are replaced whole; answers already given stay with their registrations. Turning the waitlist off leaves those already waiting on it.',
    },
    list: {
      method: 'GET',
      path: '/v1/events/:id/registrations',
      pathParams: idParams,
      query: paginationQuery.extend({ status: z.enum(registrationStatuses).optional() }),
      responses: {
        200: z.object({ registrations: z.array(registrationSchema), nextCursor: z.string().nullable() }),
      },
      metadata: memberAccess('registrations:read'),
      summary: 'List registrants, oldest first (filter by status)',
      description:
        'An event’s registrations in the order they came, up to `limit` (default and maximum 100) per page; `status` filters. Pass `nextCursor` back as `cursor` for the next page.',
    },
    export: {
      method: 'GET',
      path: '/v1/events/:id/registrations/export.csv',
      pathParams: idParams,
      query: z.object({ status: z.enum(registrationStatuses).optional() }),
      responses: { 200: c.otherResponse({ contentType: 'text/csv; charset=utf-8', body: z.string() }) },
      metadata: memberAccess('registrations:read'),
      summary: 'Export registrants as CSV',
      description:
        "Every registration of the event as CSV (RFC 4180, a header row, one column per custom question; multiple choices joined with `; `). Cells that a spreadsheet would run as a formula are prefixed with `'`.",
    },
    get: {
      method: 'GET',
      path: '/v1/events/:id/registrations/:registrationId',
      pathParams: registrationParams,
      responses: { 200: registrationSchema },
      metadata: memberAccess('registrations:read'),
      summary: 'Read one registration',
      description: 'One registration with its answers and status.',
    },
    approve: {
      method: 'POST',
      path: '/v1/events/:id/registrations/:registrationId/approve',
      pathParams: registrationParams,
      body: noContent,
      responses: { 200: registrationSchema },
      metadata: memberAccess('registrations:write', ['invalid_state', 'event_full']),
      summary: 'Approve a pending registration',
      description:
        'Admits a `pending_approval` registration: `registered` when a seat is free; at capacity it joins the waiting list when the event keeps one, else 409 `event_full`. The registrant is emailed their join link and calendar invite. Other statuses answer 409 `invalid_state`.',
    },
    cancel: {
      method: 'POST',
      path: '/v1/events/:id/registrations/:registrationId/cancel',
      pathParams: registrationParams,
      body: noContent,
      responses: { 200: registrationSchema },
      metadata: memberAccess('registrations:write', ['invalid_state']),
      summary: 'Cancel (or decline) a registration',
      description:
        'Cancels a registration (declines a pending one). A freed seat goes to the first on the waiting list. Canceling twice answers the canceled registration; an attended one answers 409 `invalid_state`.',
    },
  },
  { commonResponses: commonErrors },
);

/** The public side: the registrant's own calls. */
export const registrantContract = c.router(
  {
    cancel: {
      method: 'POST',
      path: '/v1/public/events/:id/registration/cancel',
      pathParams: idParams,
      body: z.object({ token: z.string().min(1).max(500) }).strict(),
      responses: { 200: z.object({ registrationId: uuid, status: z.enum(registrationStatuses) }) },
      metadata: meta({ access: 'public', errors: ['invalid_token', 'invalid_state'] }),
      summary: 'Cancel my registration with the token of my join link',
      description:
        'Cancels the registration the token belongs to (the `token` of the personal join link; it cancels even after it was used to enter). A wrong token answers 400 `invalid_token`.',
    },
    calendar: {
      method: 'GET',
      path: '/v1/public/registrations/:id/calendar.ics',
      pathParams: idParams,
      responses: { 200: c.otherResponse({ contentType: 'text/calendar; charset=utf-8', body: z.string() }) },
      metadata: meta({ access: 'public', errors: ['invalid_state'] }),
      summary: 'The registrant’s calendar entry (.ics)',
      description:
        'An iCalendar file for one registration: one stable `UID` per registrant and event, `SEQUENCE` raised on every reschedule, `METHOD:CANCEL` once the registration or the event is canceled. The registration id is the capability: it is shown only to the registrant and the workspace. An event without `scheduledAt` answers 409 `invalid_state`.',
    },
  },
  { commonResponses: commonErrors },
);
