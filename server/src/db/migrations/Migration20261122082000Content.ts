import { Migration } from '@mikro-orm/migrations';

/**
 * Post-event content (docs/content.md): recordings, their clips, transcripts, the AI summary of each
 * transcript, per-table notes and the `gcn_` tokens that read them (only the SHA-256 is kept).
 * Everything belongs to an event and goes with it (`on delete cascade`); a recording takes its clips
 * with it, a transcript its summary and table notes. A transcript outlives the recording it came from
 * (`recording_id` is set null).
 */
export class Migration20261122082000Content extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table recording (
        id uuid primary key,
        event_id uuid not null references event(id) on delete cascade,
        url text not null,
        duration_seconds double precision check (duration_seconds >= 0),
        created_at timestamptz not null default now()
      );
      create index recording_event_idx on recording(event_id, created_at desc, id);

      create table clip (
        id uuid primary key,
        recording_id uuid not null references recording(id) on delete cascade,
        event_id uuid not null references event(id) on delete cascade,
        title text,
        start_seconds double precision not null check (start_seconds >= 0),
        end_seconds double precision not null,
        status text not null check (status in ('pending', 'ready')),
        created_at timestamptz not null default now(),
        check (end_seconds > start_seconds)
      );
      create index clip_recording_idx on clip(recording_id, created_at, id);
      create index clip_event_idx on clip(event_id, created_at, id);

      create table transcript (
        id uuid primary key,
        event_id uuid not null references event(id) on delete cascade,
        recording_id uuid references recording(id) on delete set null,
        segments jsonb not null,
        created_at timestamptz not null default now()
      );
      create index transcript_event_idx on transcript(event_id, created_at desc, id);
      create index transcript_recording_idx on transcript(recording_id) where recording_id is not null;

      create table content_summary (
        id uuid primary key,
        event_id uuid not null references event(id) on delete cascade,
        transcript_id uuid not null unique references transcript(id) on delete cascade,
        text text not null,
        speakers jsonb not null,
        engine text not null check (engine in ('extractive', 'llm')),
        generated_at timestamptz not null default now()
      );
      create index content_summary_event_idx on content_summary(event_id, generated_at desc, id);

      create table table_notes (
        id uuid primary key,
        event_id uuid not null references event(id) on delete cascade,
        transcript_id uuid not null references transcript(id) on delete cascade,
        room_id text not null,
        table_number integer not null check (table_number >= 1),
        summary jsonb not null,
        stats jsonb,
        people jsonb not null,
        engine text not null check (engine in ('extractive', 'llm')),
        generated_at timestamptz not null default now(),
        unique (transcript_id, room_id)
      );
      create index table_notes_event_idx on table_notes(event_id);

      create table table_notes_token (
        token_hash text primary key,
        table_notes_id uuid not null references table_notes(id) on delete cascade,
        event_id uuid not null references event(id) on delete cascade,
        user_id uuid not null references app_user(id) on delete cascade,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      );
      create index table_notes_token_notes_idx on table_notes_token(table_notes_id);
      create index table_notes_token_event_idx on table_notes_token(event_id);
      create index table_notes_token_user_idx on table_notes_token(user_id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table table_notes_token;
      drop table table_notes;
      drop table content_summary;
      drop table transcript;
      drop table clip;
      drop table recording;
    `);
  }
}
