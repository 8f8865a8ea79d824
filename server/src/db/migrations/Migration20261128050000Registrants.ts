import { Migration } from '@mikro-orm/migrations';

/**
 * Registrants (status, answers, approval, waitlist), the registration settings of an event, its time
 * zone and calendar sequence, the reminder claims and registrant email outbox, and the attendance
 * report kept after an event ends (docs/webinar.md).
 */
export class Migration20261128050000Registrants extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table event add column timezone text not null default 'UTC';
      alter table event add column canceled_at timestamptz;
      -- The iCalendar SEQUENCE of the event's invites: raised on every reschedule and on cancellation.
      alter table event add column calendar_sequence integer not null default 0;
      create index event_upcoming_idx on event(scheduled_at) where status = 'scheduled';
      create index event_ended_idx on event(ended_at) where status = 'ended';

      alter table registration add column workspace_id uuid;
      update registration r set workspace_id = e.workspace_id from event e where e.id = r.event_id;
      alter table registration alter column workspace_id set not null;
      alter table registration add column status text not null default 'registered'
        check (status in ('registered', 'pending_approval', 'waitlisted', 'canceled', 'attended'));
      alter table registration add column answers jsonb not null default '{}';
      alter table registration add column approved_at timestamptz;
      alter table registration add column canceled_at timestamptz;
      alter table registration add column attended_at timestamptz;
      -- The waiting-list order: promoted oldest first.
      alter table registration add column waitlisted_at timestamptz;
      create index registration_event_order_idx on registration(event_id, created_at, id);
      create index registration_waitlist_idx on registration(event_id, waitlisted_at, id) where status = 'waitlisted';

      create table registration_settings (
        event_id uuid primary key references event(id) on delete cascade,
        workspace_id uuid not null,
        questions jsonb not null default '[]',
        requires_approval boolean not null default false,
        waitlist boolean not null default false,
        reminder_minutes integer[] not null default '{1440,60}',
        updated_at timestamptz not null default now()
      );

      -- One row per reminder sent for an event start time: inserting it is the claim, so one process
      -- (and one run after a restart) queues each reminder's emails.
      create table registration_reminder_run (
        event_id uuid not null references event(id) on delete cascade,
        workspace_id uuid not null,
        minutes_before integer not null,
        scheduled_at timestamptz not null,
        created_at timestamptz not null default now(),
        primary key (event_id, minutes_before, scheduled_at)
      );

      -- Registrant emails written in the transaction of the change that causes them (reminders,
      -- reschedules, cancellations, approvals, promotions) and sent after it commits, each once.
      create table registrant_email (
        id uuid primary key,
        workspace_id uuid not null,
        event_id uuid not null references event(id) on delete cascade,
        registration_id uuid not null references registration(id) on delete cascade,
        kind text not null check (kind in ('reminder', 'updated', 'canceled', 'admitted', 'waitlisted')),
        minutes_before integer,
        created_at timestamptz not null default now(),
        sent_at timestamptz
      );
      create index registrant_email_pending_idx on registrant_email(created_at) where sent_at is null;

      -- Presence facts of one event, read when its attendance report is built.
      create index domain_event_presence_idx on domain_event(event_id, occurred_at)
        where type in ('participant.joined', 'participant.left');

      -- The attendance report of an ended event, kept as long as the event.
      create table attendance_report (
        event_id uuid primary key references event(id) on delete cascade,
        workspace_id uuid not null,
        summary jsonb not null,
        generated_at timestamptz not null default now()
      );
      create table attendance_record (
        event_id uuid not null references attendance_report(event_id) on delete cascade,
        workspace_id uuid not null,
        position integer not null,
        participant_id text not null,
        row jsonb not null,
        primary key (event_id, position)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table attendance_record, attendance_report, registrant_email, registration_reminder_run, registration_settings;
      drop index domain_event_presence_idx, registration_waitlist_idx, registration_event_order_idx, event_ended_idx, event_upcoming_idx;
      alter table registration drop column waitlisted_at, drop column attended_at, drop column canceled_at,
        drop column approved_at, drop column answers, drop column status, drop column workspace_id;
      alter table event drop column calendar_sequence, drop column canceled_at, drop column timezone;
    `);
  }
}
