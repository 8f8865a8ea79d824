import { Migration } from '@mikro-orm/migrations';

/**
 * Room control of the live plane (docs/live.md, "Running the room"): personal join links, the
 * sanctions a host or the integrator's backend puts on a participant (removal, ban, mute), chat
 * lines deleted for everyone, and the room's chat settings set over REST or the gateway.
 */
export class Migration20261128040000LiveControl extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- A personal link opened without credentials: only the code's SHA-256 is kept.
      create table live_join_link (
        id uuid primary key,
        workspace_id uuid not null references workspace(id) on delete cascade,
        event_id uuid not null references event(id) on delete cascade,
        code_hash text not null unique,
        user_id uuid references app_user(id) on delete cascade,
        registration_id uuid,
        participant_id text not null,
        name text,
        role text,
        created_at timestamptz not null default now(),
        revoked_at timestamptz
      );
      create index live_join_link_event_idx on live_join_link(event_id, created_at);

      -- One row per (participant, kind): 'removal' (tokens issued before it are refused), 'ban' (for
      -- the rest of the event; client_address set when the ban covers the address), 'mute'.
      create table live_sanction (
        workspace_id uuid not null references workspace(id) on delete cascade,
        event_id uuid not null references event(id) on delete cascade,
        participant_id text not null,
        kind text not null check (kind in ('removal', 'ban', 'mute')),
        reason text,
        with_address boolean not null default false,
        client_address text,
        created_at timestamptz not null default now(),
        primary key (event_id, participant_id, kind)
      );

      -- Chat lines and questions deleted for everyone: never replayed to a resuming socket again.
      create table live_deletion (
        workspace_id uuid not null references workspace(id) on delete cascade,
        event_id uuid not null references event(id) on delete cascade,
        kind text not null check (kind in ('chat', 'question')),
        item_id uuid not null,
        created_at timestamptz not null default now(),
        primary key (event_id, kind, item_id)
      );

      -- The room's chat settings when set for the rest of the event (over REST or by a host); without a
      -- row the governing phase's config applies.
      create table live_room (
        event_id uuid primary key references event(id) on delete cascade,
        workspace_id uuid not null references workspace(id) on delete cascade,
        chat_mode text check (chat_mode in ('open', 'audience_locked', 'moderators_only')),
        slow_mode_seconds integer check (slow_mode_seconds between 0 and 3600),
        updated_at timestamptz not null default now()
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(
      'drop table live_room; drop table live_deletion; drop table live_sanction; drop table live_join_link;',
    );
  }
}
