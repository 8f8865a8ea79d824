import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import { createEventSession } from '../identity/sessions';
import { problem } from '../lib/problem';
import { hashSecret, secretPrefixes } from '../lib/secrets';

/** Entry sessions last this long; the live plane also refuses them once the event has ended. */
export const entrySessionLifetimeMs = 24 * 3600 * 1000;

export interface EntrySession {
  sessionToken: string;
  eventId: string;
  name: string | null;
}

const invalid = () => problem('invalid_token', 'The entry token is invalid, already used or expired');

/**
 * Exchanges a registration-entry token (single use, valid until the event ends) for an entry
 * session (`gce_` Bearer token) bound to the event and the registration.
 */
export async function enter(em: EntityManager, eventId: string, token: string): Promise<EntrySession> {
  if (!token.startsWith(secretPrefixes.entrySession)) throw invalid();
  return em.transactional(async (tx) => {
    const [row] = await sql<{
      registration_id: string;
      name: string;
      email: string;
      workspace_id: string;
      status: string;
      registration_status: string;
    }>(
      tx,
      `update registration_entry_token t set used_at = now()
         from registration r join event e on e.id = r.event_id
        where t.token_hash = ? and t.used_at is null and r.id = t.registration_id and r.event_id = ?
        returning t.registration_id, r.name, r.email, e.workspace_id, e.status, r.status as registration_status`,
      [hashSecret(token), eventId],
    );
    // An ended event's tokens have expired (and the update above rolls back with this throw).
    if (!row || row.status === 'ended') throw invalid();
    // Only a seat enters: pending, waitlisted and canceled registrations keep their token for later.
    if (row.registration_status !== 'registered' && row.registration_status !== 'attended')
      throw problem(
        'invalid_state',
        `This registration is ${row.registration_status.replace('_', ' ')}: it cannot enter`,
      );
    const session = await createEventSession(tx, {
      kind: 'entry',
      workspaceId: row.workspace_id,
      eventId,
      subjectId: row.registration_id,
      data: { name: row.name, email: row.email },
      expiresAt: new Date(Date.now() + entrySessionLifetimeMs),
    });
    return { sessionToken: session.token, eventId, name: row.name };
  });
}
