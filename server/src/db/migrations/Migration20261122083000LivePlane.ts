import { Migration } from '@mikro-orm/migrations';

/**
 * The live plane's shared state (docs/live-gateway.md): presence per process with heartbeats,
 * oversized fan-out payloads, the meeting lobby, raised hands, banners, polls, breakout seats,
 * and a trigger that tells every process when an event's status or active phase changes.
 */
export class Migration20261122083000LivePlane extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- One row per (participant, server process) with that process's open connections. The owning
      -- process pushes expires_at forward on every heartbeat; rows of a process that stopped (crashed)
      -- expire, and whichever process sweeps them first fires the participant.left they imply.
      create table live_presence (
        event_id uuid not null references event(id) on delete cascade,
        participant_id text not null,
        process_id uuid not null,
        connections integer not null check (connections > 0),
        info jsonb not null,
        expires_at timestamptz not null,
        primary key (event_id, participant_id, process_id)
      );
      create index live_presence_process_idx on live_presence(process_id);
      create index live_presence_expires_idx on live_presence(expires_at);

      -- Fan-out payloads too big for NOTIFY (8000 bytes): the notification carries only the id.
      create table live_message (
        id uuid primary key,
        payload text not null,
        created_at timestamptz not null default now()
      );
      create index live_message_created_idx on live_message(created_at);

      create table live_lobby (
        event_id uuid not null references event(id) on delete cascade,
        participant_id text not null,
        info jsonb not null,
        status text not null check (status in ('waiting', 'admitted', 'denied')),
        updated_at timestamptz not null default now(),
        primary key (event_id, participant_id)
      );

      create table live_hand (
        event_id uuid not null references event(id) on delete cascade,
        participant_id text not null,
        raised_at timestamptz not null default now(),
        primary key (event_id, participant_id)
      );

      create table live_banner (
        event_id uuid primary key references event(id) on delete cascade,
        text text not null,
        updated_at timestamptz not null default now()
      );

      create table live_poll (
        id uuid primary key,
        event_id uuid not null references event(id) on delete cascade,
        question text not null,
        options jsonb not null,
        closed boolean not null default false,
        created_at timestamptz not null default now()
      );
      create index live_poll_event_idx on live_poll(event_id, created_at);

      create table live_poll_vote (
        poll_id uuid not null references live_poll(id) on delete cascade,
        voter_key text not null,
        option integer not null check (option >= 0),
        created_at timestamptz not null default now(),
        primary key (poll_id, voter_key)
      );

      -- Breakout and rotation seats: round 1 for breakouts, 1..rounds for rotations.
      create table live_table_seat (
        phase_id uuid not null references phase(id) on delete cascade,
        event_id uuid not null references event(id) on delete cascade,
        round integer not null check (round >= 1),
        participant_id text not null,
        table_no integer not null check (table_no >= 1),
        primary key (phase_id, round, participant_id)
      );
      create index live_table_seat_table_idx on live_table_seat(phase_id, round, table_no);
      create index live_table_seat_event_idx on live_table_seat(event_id);

      create function live_event_changed() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          perform pg_notify('gc_live_lifecycle', json_build_object('eventId', old.id, 'status', 'deleted')::text);
        else
          perform pg_notify('gc_live_lifecycle', json_build_object(
            'eventId', new.id, 'status', new.status, 'activePhaseId', new.active_phase_id)::text);
        end if;
        return null;
      end $$;
      create trigger event_live_changed after update of status, active_phase_id on event
        for each row
        when (old.status is distinct from new.status or old.active_phase_id is distinct from new.active_phase_id)
        execute function live_event_changed();
      -- A deleted event ends its sockets too.
      create trigger event_live_deleted after delete on event
        for each row execute function live_event_changed();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger event_live_deleted on event;
      drop trigger event_live_changed on event;
      drop function live_event_changed();
      drop table live_table_seat, live_poll_vote, live_poll, live_banner, live_hand, live_lobby,
        live_message, live_presence;
    `);
  }
}
