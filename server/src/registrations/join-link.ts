import type { SqlTx } from '../db/sql';
import { sql } from '../db/sql';
import { hashSecret, newSecret, secretPrefixes } from '../lib/secrets';

/** Where a registrant joins: the link carries a single-use entry token (valid until the event ends). */
export const entryLink = (baseUrl: string, eventId: string, token: string) =>
  `${baseUrl}/events/${eventId}/enter?token=${encodeURIComponent(token)}`;

/** The registration's public calendar file. */
export const calendarLink = (baseUrl: string, registrationId: string) =>
  `${baseUrl}/v1/public/registrations/${registrationId}/calendar.ics`;

/** A fresh entry token for a registration (only its SHA-256 is kept); answers the token. */
export async function mintEntryToken(tx: SqlTx, registrationId: string): Promise<string> {
  const token = newSecret(secretPrefixes.entrySession);
  await sql(tx, 'insert into registration_entry_token (token_hash, registration_id) values (?, ?)', [
    hashSecret(token),
    registrationId,
  ]);
  return token;
}
