import type { AttendanceSummary, Attendee } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import { eventOfWorkspace } from '../events/locks';
import type { Actor } from '../lib/actor';
import { csv } from '../lib/csv';
import { problem } from '../lib/problem';

const notReady = () =>
  problem(
    'invalid_state',
    'The attendance report is built within 60 s of the event’s end; it is not ready yet',
  );

export async function attendanceSummary(
  em: EntityManager,
  actor: Actor,
  eventId: string,
): Promise<AttendanceSummary> {
  await eventOfWorkspace(em, actor, eventId);
  const [row] = await sql<{ summary: AttendanceSummary }>(
    em,
    'select summary from attendance_report where event_id = ?',
    [eventId],
  );
  if (!row) throw notReady();
  return row.summary;
}

const encode = (position: number) => Buffer.from(String(position)).toString('base64url');
function decode(cursor: string): number {
  const n = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(n) || n < 0)
    throw problem('bad_request', 'The cursor is not one this API returned', {
      errors: [{ path: 'query.cursor', code: 'invalid_value', message: 'Invalid cursor' }],
    });
  return n;
}

async function rowsAfter(em: EntityManager, actor: Actor, eventId: string, after: number, limit: number) {
  await attendanceSummary(em, actor, eventId);
  return sql<{ position: number; row: Attendee }>(
    em,
    'select position, row from attendance_record where event_id = ? and position > ? order by position limit ?',
    [eventId, after, limit],
  );
}

/** In order of first join; the cursor is the last row's place. */
export async function attendees(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: { cursor?: string; limit?: number },
): Promise<{ attendees: Attendee[]; nextCursor: string | null }> {
  const limit = input.limit ?? 100;
  const rows = await rowsAfter(em, actor, eventId, input.cursor ? decode(input.cursor) : 0, limit + 1);
  const page = rows.slice(0, limit);
  return {
    attendees: page.map((r) => r.row),
    nextCursor: rows.length > limit ? encode(page[page.length - 1]!.position) : null,
  };
}

export async function attendeesCsv(em: EntityManager, actor: Actor, eventId: string): Promise<string> {
  const rows = await rowsAfter(em, actor, eventId, 0, 1_000_000);
  return csv(
    [
      'participant_id',
      'kind',
      'registration_id',
      'user_id',
      'name',
      'email',
      'first_joined_at',
      'last_left_at',
      'minutes',
      'intervals',
      'phases',
      'tables',
    ],
    rows.map(({ row: a }) => [
      a.participantId,
      a.kind,
      a.registrationId,
      a.userId,
      a.name,
      a.email,
      a.firstJoinedAt,
      a.lastLeftAt,
      a.minutes,
      a.intervals.map((i) => `${i.joinedAt}/${i.leftAt}`).join('; '),
      a.phases.map((p) => `${p.position}:${p.minutes}`).join('; '),
      a.tables.map((t) => `${t.round}:${t.table}`).join('; '),
    ]),
  );
}
