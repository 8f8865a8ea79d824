import type { RegistrationStatus } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, sql } from '../db/sql';
import { eventOfWorkspace } from '../events/locks';
import type { Actor } from '../lib/actor';
import { csv } from '../lib/csv';
import { type RegistrationRow, registrationColumns } from './rows';
import { readSettings } from './settings';

/** Every registration of the event (optionally of one status) as CSV, a column per custom question. */
export async function exportRegistrations(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  status?: RegistrationStatus,
): Promise<string> {
  await eventOfWorkspace(em, actor, eventId);
  const { questions } = await readSettings(em, eventId);
  const rows = await sql<RegistrationRow>(
    em,
    `select ${registrationColumns} from registration r
      where r.event_id = ? and (?::text is null or r.status = ?) order by r.created_at, r.id`,
    [eventId, status ?? null, status ?? null],
  );
  return csv(
    [
      'id',
      'name',
      'email',
      'status',
      'waitlist_position',
      'created_at',
      'approved_at',
      'canceled_at',
      'attended_at',
      ...questions.map((q) => q.label),
    ],
    rows.map((r) => [
      r.id,
      r.name,
      r.email,
      r.status,
      r.waitlist_position,
      iso(r.created_at),
      iso(r.approved_at),
      iso(r.canceled_at),
      iso(r.attended_at),
      ...questions.map((q) => {
        const a = r.answers?.[q.id];
        return Array.isArray(a) ? a.join('; ') : a;
      }),
    ]),
  );
}
