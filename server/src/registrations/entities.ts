import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * Registrations, their entry tokens, settings, reminder claims and the registrant email outbox. The
 * services use SQL; these describe the schema.
 */
/** A self-registration for an event (one per email and event). */
export const Registration = defineEntity({
  name: 'Registration',
  tableName: 'registration',
  indexes: [
    { name: 'registration_event_order_idx', properties: ['eventId', 'createdAt', 'id'] },
    {
      name: 'registration_waitlist_idx',
      expression:
        "CREATE INDEX registration_waitlist_idx ON public.registration USING btree (event_id, waitlisted_at, id) WHERE (status = 'waitlisted'::text)",
    },
  ],
  uniques: [{ name: 'registration_event_id_email_key', properties: ['eventId', 'email'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    workspaceId: p.uuid(),
    email: p.text(),
    name: p.text(),
    status: p
      .enum(['registered', 'pending_approval', 'waitlisted', 'canceled', 'attended'] as const)
      .defaultRaw("'registered'"),
    answers: p.json<Record<string, string | string[]>>().defaultRaw("'{}'"),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
    approvedAt: p.datetime().nullable(),
    canceledAt: p.datetime().nullable(),
    attendedAt: p.datetime().nullable(),
    waitlistedAt: p.datetime().nullable(),
  }),
});
export type Registration = InferEntity<typeof Registration>;

/** A single-use entry token sent in a confirmation email; only its SHA-256 is kept. */
export const RegistrationEntryToken = defineEntity({
  name: 'RegistrationEntryToken',
  tableName: 'registration_entry_token',
  indexes: [{ name: 'registration_entry_token_registration_idx', properties: ['registrationId'] }],
  properties: (p) => ({
    tokenHash: p.text().primary(),
    registrationId: p.uuid(),
    createdAt: p.datetime().defaultRaw('now()'),
    usedAt: p.datetime().nullable(),
  }),
});
export type RegistrationEntryToken = InferEntity<typeof RegistrationEntryToken>;

/** Per-event registration settings. */
export const RegistrationSettings = defineEntity({
  name: 'RegistrationSettings',
  tableName: 'registration_settings',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    workspaceId: p.uuid(),
    questions: p.json<unknown[]>().defaultRaw("'[]'"),
    requiresApproval: p.boolean().defaultRaw('false'),
    waitlist: p.boolean().defaultRaw('false'),
    reminderMinutes: p.array<number>().defaultRaw("'{1440,60}'"),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type RegistrationSettings = InferEntity<typeof RegistrationSettings>;

export const RegistrationReminderRun = defineEntity({
  name: 'RegistrationReminderRun',
  tableName: 'registration_reminder_run',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    minutesBefore: p.integer().primary(),
    scheduledAt: p.datetime().primary(),
    workspaceId: p.uuid(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type RegistrationReminderRun = InferEntity<typeof RegistrationReminderRun>;

export const RegistrantEmail = defineEntity({
  name: 'RegistrantEmail',
  tableName: 'registrant_email',
  indexes: [
    {
      name: 'registrant_email_pending_idx',
      expression:
        'CREATE INDEX registrant_email_pending_idx ON public.registrant_email USING btree (created_at) WHERE (sent_at IS NULL)',
    },
  ],
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    eventId: p.uuid(),
    registrationId: p.uuid(),
    kind: p.enum(['reminder', 'updated', 'canceled', 'admitted', 'waitlisted'] as const),
    minutesBefore: p.integer().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    sentAt: p.datetime().nullable(),
  }),
});
export type RegistrantEmail = InferEntity<typeof RegistrantEmail>;

export const registrationEntities = [
  Registration,
  RegistrationEntryToken,
  RegistrationSettings,
  RegistrationReminderRun,
  RegistrantEmail,
];
