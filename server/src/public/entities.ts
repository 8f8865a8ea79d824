import { defineEntity, type InferEntity } from '@mikro-orm/core';

/** A self-registration for an event (one per email and event). */
export const Registration = defineEntity({
  name: 'Registration',
  tableName: 'registration',
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    email: p.text(),
    name: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
export type Registration = InferEntity<typeof Registration>;

/** A single-use entry token sent in a confirmation email; only its SHA-256 is kept. */
export const RegistrationEntryToken = defineEntity({
  name: 'RegistrationEntryToken',
  tableName: 'registration_entry_token',
  properties: (p) => ({
    tokenHash: p.text().primary(),
    registrationId: p.uuid(),
    createdAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  }),
});
export type RegistrationEntryToken = InferEntity<typeof RegistrationEntryToken>;

export const registrationEntities = [Registration, RegistrationEntryToken];
