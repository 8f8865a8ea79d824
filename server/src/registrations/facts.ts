import type { RegistrationStatus } from '@gathercast/contract';
import { type SqlTx, sql } from '../db/sql';
import type { EmailFacts } from './emails';
import { calendarLink } from './join-link';
import { waitlistPositionSql } from './rows';

interface FactsRow {
  event_id: string;
  title: string;
  scheduled_at: Date | null;
  scheduled_end_at: Date | null;
  timezone: string;
  calendar_sequence: number;
  event_status: string;
  canceled_at: Date | null;
  id: string;
  name: string;
  email: string;
  status: RegistrationStatus;
  waitlist_position: number | null;
}

/** What registrant emails and calendar files say, read for one registration (null when it is gone). */
export async function readFacts(
  db: SqlTx,
  baseUrl: string,
  registrationId: string,
): Promise<EmailFacts | null> {
  const [r] = await sql<FactsRow>(
    db,
    `select e.id as event_id, e.title, e.scheduled_at, e.scheduled_end_at, e.timezone, e.calendar_sequence,
            e.status as event_status, e.canceled_at, r.id, r.name, r.email, r.status, ${waitlistPositionSql}
       from registration r join event e on e.id = r.event_id where r.id = ?`,
    [registrationId],
  );
  if (!r) return null;
  return {
    eventId: r.event_id,
    title: r.title,
    scheduledAt: r.scheduled_at && new Date(r.scheduled_at),
    scheduledEndAt: r.scheduled_end_at && new Date(r.scheduled_end_at),
    timezone: r.timezone,
    calendarSequence: r.calendar_sequence,
    eventCanceled: r.canceled_at !== null,
    eventStatus: r.event_status,
    registrationId: r.id,
    name: r.name,
    email: r.email,
    status: r.status,
    waitlistPosition: r.waitlist_position,
    joinUrl: null,
    calendarUrl: calendarLink(baseUrl, r.id),
    eventUrl: `${baseUrl}/events/${r.event_id}`,
  };
}
