/**
 * iCalendar (RFC 5545) for one registration. The UID is stable per registrant and event, so a
 * calendar replaces its entry on an update; SEQUENCE is the event's calendar sequence (raised on every
 * reschedule and on cancellation), plus one once the registration itself is canceled. Times are UTC
 * (`Z`), which every client shows in its own zone; the event's zone is named in the description.
 */

export interface CalendarEntry {
  registrationId: string;
  title: string;
  startsAt: Date;
  /** Without an end time the entry lasts an hour. */
  endsAt: Date | null;
  timezone: string;
  sequence: number;
  canceled: boolean;
  /** Where the registrant joins (the event page; the personal link is in the email, single use). */
  url: string;
  organizerEmail: string;
  /** In emailed invites: the registrant, as the invite's attendee. */
  attendee?: { name: string; email: string };
  /** REQUEST for an emailed invite, PUBLISH for the public file; CANCEL when canceled. */
  method: 'REQUEST' | 'PUBLISH';
}

const utc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** TEXT value escaping (RFC 5545 §3.3.11). */
const text = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** A parameter value, quoted (no quotes, controls or newlines inside). */
const param = (s: string) => `"${[...s].filter((c) => c !== '"' && c.charCodeAt(0) >= 0x20).join('')}"`;

/** Lines longer than 75 octets are folded (§3.1): a CRLF and a space, never inside a UTF-8 sequence. */
function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Back off to a character boundary (a continuation byte is 10xxxxxx).
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74;
  }
  return parts.join('\r\n ');
}

export const calendarUid = (registrationId: string) => `registration-${registrationId}@gathercast`;

export function calendarFile(e: CalendarEntry, now = new Date()): string {
  const method = e.canceled ? 'CANCEL' : e.method;
  const end = e.endsAt ?? new Date(e.startsAt.getTime() + 3600_000);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Gathercast//Registrations//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    'BEGIN:VEVENT',
    `UID:${calendarUid(e.registrationId)}`,
    `DTSTAMP:${utc(now)}`,
    `SEQUENCE:${e.sequence}`,
    `DTSTART:${utc(e.startsAt)}`,
    `DTEND:${utc(end)}`,
    `SUMMARY:${text(e.title)}`,
    `DESCRIPTION:${text(`${e.title} (${e.timezone}). Join: ${e.url}`)}`,
    `URL:${e.url}`,
    `STATUS:${e.canceled ? 'CANCELLED' : 'CONFIRMED'}`,
    `ORGANIZER;CN=Gathercast:mailto:${e.organizerEmail}`,
    ...(e.attendee
      ? [`ATTENDEE;CN=${param(e.attendee.name)};ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:${e.attendee.email}`]
      : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/** The address part of `Name <address>` (EMAIL_FROM), for ORGANIZER. */
export const organizerAddress = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
