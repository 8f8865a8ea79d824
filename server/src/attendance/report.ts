import type { AttendanceSummary, Attendee } from '@gathercast/contract';
import { withTransaction } from '../db/pool';
import { type SqlTx, sql } from '../db/sql';
import type { AppContext } from '../lib/context';
import { engagementOf } from './engagement';
import {
  type Interval,
  intervalsByParticipant,
  minutes,
  overlapMs,
  peakConcurrent,
  totalMs,
} from './intervals';
import { peopleOf } from './people';

interface EndedEvent {
  id: string;
  workspace_id: string;
  started_at: Date;
  ended_at: Date;
}

const iso = (ms: number) => new Date(ms).toISOString();

async function presenceFacts(db: SqlTx, eventId: string) {
  const rows = await sql<{ type: string; participant_id: string; occurred_at: Date }>(
    db,
    `select type, payload->>'participantId' as participant_id, occurred_at from domain_event
      where event_id = ? and type in ('participant.joined', 'participant.left')`,
    [eventId],
  );
  return rows.map((r) => ({
    participantId: r.participant_id,
    joined: r.type === 'participant.joined',
    at: new Date(r.occurred_at).getTime(),
  }));
}

/** Each attendee's phases (time in each) and breakout seats. */
async function phasesAndTables(db: SqlTx, eventId: string) {
  const [phases, seats] = await Promise.all([
    sql<{ id: string; position: number; started_at: Date | null; ended_at: Date | null }>(
      db,
      'select id, position, started_at, ended_at from phase where event_id = ? and started_at is not null order by position',
      [eventId],
    ),
    sql<{ participant_id: string; phase_id: string; round: number; table_no: number }>(
      db,
      'select participant_id, phase_id, round, table_no from live_table_seat where event_id = ? order by phase_id, round',
      [eventId],
    ),
  ]);
  return { phases, seats };
}

/**
 * Builds the attendance report of one ended event, once: the event row is taken `for update skip
 * locked`, so one process builds it while others pass, and the report, its rows, the registrants
 * marked attended and event.attendance_ready commit together.
 */
async function build(ctx: Pick<AppContext, 'bus'>, tx: SqlTx, eventId: string): Promise<boolean> {
  const [event] = await sql<EndedEvent>(
    tx,
    `select id, workspace_id, started_at, ended_at from event e where id = ? and status = 'ended'
        and started_at is not null and not exists (select 1 from attendance_report r where r.event_id = e.id)
      for update skip locked`,
    [eventId],
  );
  if (!event) return false;
  const start = new Date(event.started_at).getTime();
  const end = new Date(event.ended_at).getTime();
  const byPerson = intervalsByParticipant(await presenceFacts(tx, eventId), start, end);
  const ids = [...byPerson.keys()];
  const [people, { phases, seats }, engagement] = await Promise.all([
    peopleOf(tx, ids),
    phasesAndTables(tx, eventId),
    engagementOf(tx, eventId),
  ]);
  const attendees: Attendee[] = ids
    .map((participantId) => {
      const list = byPerson.get(participantId)!;
      return {
        participantId,
        ...people.get(participantId)!,
        firstJoinedAt: iso(list[0]!.from),
        lastLeftAt: iso(list[list.length - 1]!.to),
        minutes: minutes(totalMs(list)),
        intervals: list.map((i) => ({ joinedAt: iso(i.from), leftAt: iso(i.to) })),
        phases: phases
          .map((p) => ({
            phaseId: p.id,
            position: p.position,
            ms: overlapMs(
              list,
              new Date(p.started_at!).getTime(),
              p.ended_at ? new Date(p.ended_at).getTime() : end,
            ),
          }))
          .filter((p) => p.ms > 0)
          .map(({ ms, ...p }) => ({ ...p, minutes: minutes(ms) })),
        tables: seats
          .filter((s) => s.participant_id === participantId)
          .map((s) => ({ phaseId: s.phase_id, round: s.round, table: s.table_no })),
      };
    })
    .sort(
      (a, b) =>
        a.firstJoinedAt.localeCompare(b.firstJoinedAt) || a.participantId.localeCompare(b.participantId),
    );
  const came = attendees.flatMap((a) => (a.registrationId ? [a.registrationId] : []));
  await sql(
    tx,
    `update registration set status = 'attended', attended_at = coalesce(attended_at, now()), updated_at = now()
      where event_id = ? and id = any(?::uuid[]) and status = 'registered'`,
    [eventId, `{${came.join(',')}}`],
  );
  const [seated] = await sql<{ registrants: number; attended: number }>(
    tx,
    `select count(*)::int as registrants, count(*) filter (where status = 'attended')::int as attended
       from registration where event_id = ? and status in ('registered', 'attended')`,
    [eventId],
  );
  const all: Interval[] = [...byPerson.values()].flat();
  const summary: AttendanceSummary = {
    eventId,
    generatedAt: new Date().toISOString(),
    startedAt: iso(start),
    endedAt: iso(end),
    uniqueAttendees: attendees.length,
    peakConcurrent: peakConcurrent(all),
    totalMinutes: minutes(totalMs(all)),
    registrants: seated!.registrants,
    registrantsAttended: seated!.attended,
    showUpRate: seated!.registrants
      ? Math.round((seated!.attended / seated!.registrants) * 10_000) / 10_000
      : null,
    ...engagement,
  };
  await sql(tx, 'insert into attendance_report (event_id, workspace_id, summary) values (?, ?, ?::jsonb)', [
    eventId,
    event.workspace_id,
    JSON.stringify(summary),
  ]);
  await sql(
    tx,
    `insert into attendance_record (event_id, workspace_id, position, participant_id, row)
     select ?, ?, x.ordinality, x.value->>'participantId', x.value from jsonb_array_elements(?::jsonb) with ordinality as x(value, ordinality)`,
    [eventId, event.workspace_id, JSON.stringify(attendees)],
  );
  await ctx.bus.record(tx, {
    type: 'event.attendance_ready',
    workspaceId: event.workspace_id,
    eventId,
    data: { uniqueAttendees: summary.uniqueAttendees, peakConcurrent: summary.peakConcurrent },
  });
  return true;
}

/** Reports are built for events that ended in the last 30 days and have none yet (a few per run). */
export async function buildDueReports(ctx: Pick<AppContext, 'bus' | 'pool'>): Promise<void> {
  const { rows } = await ctx.pool.query<{ id: string }>(
    `select id from event e where status = 'ended' and started_at is not null and ended_at > now() - interval '30 days'
        and not exists (select 1 from attendance_report r where r.event_id = e.id)
      order by ended_at limit 20`,
  );
  for (const { id } of rows) await withTransaction(ctx.pool, (tx) => build(ctx, tx, id));
}
