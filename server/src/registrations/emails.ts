import type { RegistrationStatus } from '@gathercast/contract';
import type { SqlTx } from '../db/sql';
import type { EmailAttachment, OutgoingEmail } from '../email/mailer';
import type { AppContext } from '../lib/context';
import { escapeHtml } from '../lib/html';
import { calendarFile, organizerAddress } from './calendar';
import type { RegistrantEmailKind } from './changes';

/**
 * The one way registrant emails leave this domain: onto the durable email queue, in the transaction
 * `tx` of the change that causes them (sent once it commits, retried while the mail server refuses).
 */
export async function queueRegistrantEmail(
  ctx: Pick<AppContext, 'emails'>,
  tx: SqlTx,
  email: OutgoingEmail,
): Promise<void> {
  await ctx.emails.enqueue(tx, email);
}

/** What an email says about the event and the registrant. */
export interface EmailFacts {
  eventId: string;
  title: string;
  scheduledAt: Date | null;
  scheduledEndAt: Date | null;
  timezone: string;
  calendarSequence: number;
  eventCanceled: boolean;
  eventStatus: string;
  registrationId: string;
  name: string;
  email: string;
  status: RegistrationStatus;
  waitlistPosition: number | null;
  /** The personal join link (fresh token), when the email carries one. */
  joinUrl: string | null;
  calendarUrl: string;
  /** The event's public page. */
  eventUrl: string;
}

/** "Tuesday, December 1, 2026 at 6:00 PM (Europe/Paris)": the event's own zone. */
export const inZone = (d: Date, timezone: string) =>
  `${new Intl.DateTimeFormat('en-US', { timeZone: timezone, dateStyle: 'full', timeStyle: 'short' }).format(d)} (${timezone})`;

/**
 * The registration's calendar file; canceled when the registration or the event is. A registration
 * canceled on its own raises SEQUENCE by one over the event's, as iTIP wants for a CANCEL.
 */
export function calendarOf(
  f: EmailFacts,
  from: string,
  method: 'REQUEST' | 'PUBLISH',
  withAttendee: boolean,
): string {
  const ownCancel = f.status === 'canceled' && !f.eventCanceled;
  return calendarFile({
    registrationId: f.registrationId,
    title: f.title,
    startsAt: f.scheduledAt!,
    endsAt: f.scheduledEndAt,
    timezone: f.timezone,
    sequence: f.calendarSequence + (ownCancel ? 1 : 0),
    canceled: f.status === 'canceled' || f.eventCanceled,
    url: f.eventUrl,
    organizerEmail: organizerAddress(from),
    ...(withAttendee ? { attendee: { name: f.name, email: f.email } } : {}),
    method,
  });
}

function invite(f: EmailFacts, from: string): EmailAttachment[] {
  if (!f.scheduledAt) return [];
  const canceled = f.status === 'canceled' || f.eventCanceled;
  return [
    {
      filename: 'invite.ics',
      contentType: `text/calendar; charset=utf-8; method=${canceled ? 'CANCEL' : 'REQUEST'}`,
      content: calendarOf(f, from, 'REQUEST', true),
    },
  ];
}

/** Subject and opening line by what happened. */
function wording(kind: RegistrantEmailKind | 'confirmation', f: EmailFacts, now: Date) {
  const when = f.scheduledAt ? inZone(f.scheduledAt, f.timezone) : 'a time to be announced';
  switch (kind) {
    case 'confirmation':
      if (f.status === 'pending_approval')
        return {
          subject: `Registration received: ${f.title}`,
          line: `Your registration for ${f.title} (${when}) waits for the organizer's approval. The link below works once you are approved.`,
        };
      if (f.status === 'waitlisted')
        return {
          subject: `You're on the waiting list: ${f.title}`,
          line: `${f.title} (${when}) is full; you are number ${f.waitlistPosition ?? '?'} on the waiting list. We will email you if a seat frees up; the link below works from then.`,
        };
      return { subject: `You're registered: ${f.title}`, line: `You're registered for ${f.title}, ${when}.` };
    case 'admitted':
      return { subject: `You're in: ${f.title}`, line: `A seat is yours for ${f.title}, ${when}.` };
    case 'waitlisted':
      return {
        subject: `You're on the waiting list: ${f.title}`,
        line: `Your registration for ${f.title} was approved, but the event is full: you are number ${f.waitlistPosition ?? '?'} on the waiting list.`,
      };
    case 'updated':
      return {
        subject: `Updated: ${f.title}`,
        line: `${f.title} has moved: it is now ${when}. Your calendar invite is updated.`,
      };
    case 'canceled':
      return f.eventCanceled
        ? { subject: `Canceled: ${f.title}`, line: `${f.title}, planned for ${when}, has been canceled.` }
        : {
            subject: `Registration canceled: ${f.title}`,
            line: `Your registration for ${f.title} (${when}) is canceled.`,
          };
    case 'reminder': {
      const soon = startsIn(f.scheduledAt ? f.scheduledAt.getTime() - now.getTime() : 0);
      return { subject: `Reminder: ${f.title} starts ${soon}`, line: `${f.title} starts ${soon}: ${when}.` };
    }
  }
}

/** "in 1 day", "in 2 hours", "in 15 minutes": from the time left when the email goes (a late one says so). */
function startsIn(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const [n, unit] =
    minutes >= 1440
      ? [Math.round(minutes / 1440), 'day']
      : minutes >= 60
        ? [Math.round(minutes / 60), 'hour']
        : [minutes, 'minute'];
  return `in ${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** A registrant email: the join link first (when it carries one), then the calendar file. */
export function registrantEmail(
  kind: RegistrantEmailKind | 'confirmation',
  f: EmailFacts,
  from: string,
  now = new Date(),
): OutgoingEmail {
  const { subject, line } = wording(kind, f, now);
  const canceled = kind === 'canceled';
  const seated = f.status === 'registered' || f.status === 'attended';
  const attach = canceled || (seated && kind !== 'waitlisted') ? invite(f, from) : [];
  const links = [...(f.joinUrl && !canceled ? [f.joinUrl] : []), f.calendarUrl];
  const join =
    f.joinUrl && !canceled
      ? `\n\nJoin with this link (it works once, until the event ends):\n${f.joinUrl}`
      : '';
  const manage = canceled ? '' : `\n\nAdd it to your calendar: ${f.calendarUrl}`;
  return {
    to: f.email,
    subject,
    text: `Hi ${f.name},\n\n${line}${join}${manage}\n`,
    html: `<p>Hi ${escapeHtml(f.name)},</p><p>${escapeHtml(line)}</p>${
      f.joinUrl && !canceled
        ? `<p><a href="${escapeHtml(f.joinUrl)}">Join the event</a> (the link works once, until the event ends).</p>`
        : ''
    }${canceled ? '' : `<p><a href="${escapeHtml(f.calendarUrl)}">Add to calendar</a></p>`}`,
    links,
    attachments: attach,
  };
}
