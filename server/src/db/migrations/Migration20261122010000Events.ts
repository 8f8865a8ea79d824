import { Migration } from '@mikro-orm/migrations';

/** Events, their agenda (phases), memberships, registrations and entry tokens, Q&A. */
export class Migration20261122010000Events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table event (
        id uuid primary key,
        workspace_id uuid not null references workspace(id) on delete cascade,
        type text not null,
        title text not null,
        status text not null default 'draft' check (status in ('draft', 'scheduled', 'live', 'ended')),
        scheduled_at timestamptz,
        scheduled_end_at timestamptz,
        visibility text not null default 'unlisted' check (visibility in ('public', 'unlisted', 'private')),
        allow_anonymous_voting boolean not null default false,
        allow_anonymous_questions boolean not null default false,
        capacity integer check (capacity is null or capacity >= 1),
        -- Registrations admitted so far; only ever changed under the event row lock.
        registered_count integer not null default 0,
        metadata jsonb not null default '{}',
        active_phase_id uuid,
        created_by_account_id uuid references account(id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        published_at timestamptz,
        started_at timestamptz,
        ended_at timestamptz
      );
      create index event_workspace_created_idx on event(workspace_id, created_at desc, id desc);

      create table phase (
        id uuid primary key,
        event_id uuid not null references event(id) on delete cascade,
        position integer not null,
        modality text not null check (modality in ('broadcast', 'meeting', 'breakout', 'rotation')),
        status text not null default 'pending' check (status in ('pending', 'active', 'ended')),
        feature_set jsonb not null default '[]',
        config jsonb not null default '{}',
        started_at timestamptz,
        ends_at timestamptz,
        ended_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (event_id, position)
      );

      create table event_membership (
        id uuid primary key,
        event_id uuid not null references event(id) on delete cascade,
        user_id uuid not null references app_user(id) on delete cascade,
        role text not null check (role in ('host', 'speaker', 'participant', 'viewer', 'workspace_admin')),
        created_at timestamptz not null default now(),
        unique (event_id, user_id)
      );
      create index event_membership_user_idx on event_membership(user_id);

      create table registration (
        id uuid primary key,
        event_id uuid not null references event(id) on delete cascade,
        email text not null,
        name text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (event_id, email)
      );

      -- One single-use entry token per confirmation email; only the SHA-256 is kept.
      create table registration_entry_token (
        token_hash text primary key,
        registration_id uuid not null references registration(id) on delete cascade,
        created_at timestamptz not null default now(),
        used_at timestamptz
      );
      create index registration_entry_token_registration_idx on registration_entry_token(registration_id);

      create table question (
        id uuid primary key,
        event_id uuid not null references event(id) on delete cascade,
        text text not null,
        author_user_id uuid references app_user(id) on delete set null,
        author_name text,
        anonymous boolean not null default false,
        status text not null default 'open' check (status in ('open', 'answered', 'dismissed')),
        created_at timestamptz not null default now()
      );
      create index question_event_idx on question(event_id, created_at);

      create table question_vote (
        question_id uuid not null references question(id) on delete cascade,
        -- A user id, a session id or an anonymous viewer key: one vote per voter.
        voter_key text not null,
        created_at timestamptz not null default now(),
        primary key (question_id, voter_key)
      );
    `);
  }
}
