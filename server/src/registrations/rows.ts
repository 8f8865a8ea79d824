import type { Registration, RegistrationAnswers, RegistrationStatus } from '@gathercast/contract';
import { iso } from '../db/sql';

export interface RegistrationRow {
  id: string;
  event_id: string;
  workspace_id: string;
  email: string;
  name: string;
  status: RegistrationStatus;
  answers: RegistrationAnswers;
  created_at: Date;
  updated_at: Date;
  approved_at: Date | null;
  canceled_at: Date | null;
  attended_at: Date | null;
  waitlist_position: number | null;
}

/** The place of `registration r` on its waiting list, counted (the partial index keeps it cheap). */
export const waitlistPositionSql = `case when r.status = 'waitlisted' then (select count(*) from registration w
    where w.event_id = r.event_id and w.status = 'waitlisted' and (w.waitlisted_at, w.id) <= (r.waitlisted_at, r.id))::int
  end as waitlist_position`;

/** Columns of `registration r`. */
export const registrationColumns = `r.id, r.event_id, r.workspace_id, r.email, r.name, r.status, r.answers,
  r.created_at, r.updated_at, r.approved_at, r.canceled_at, r.attended_at, ${waitlistPositionSql}`;

export const toRegistration = (r: RegistrationRow): Registration => ({
  id: r.id,
  eventId: r.event_id,
  name: r.name,
  email: r.email,
  status: r.status,
  answers: r.answers ?? {},
  waitlistPosition: r.waitlist_position,
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
  approvedAt: iso(r.approved_at),
  canceledAt: iso(r.canceled_at),
  attendedAt: iso(r.attended_at),
});

/** Statuses that hold a seat: they count against the event's capacity. */
export const seatStatuses = `('registered', 'attended')`;
