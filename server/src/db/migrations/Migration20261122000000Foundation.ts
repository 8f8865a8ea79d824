import { Migration } from '@mikro-orm/migrations';

/** Identity core, idempotency records, the domain-event outbox and service keys. */
export class Migration20261122000000Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table account (
        id uuid primary key,
        name text not null,
        password_hash text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create table account_email (
        id uuid primary key,
        account_id uuid not null references account(id) on delete cascade,
        email text not null unique,
        "primary" boolean not null default false,
        verified_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index account_email_account_idx on account_email(account_id);
      create unique index account_email_one_primary on account_email(account_id) where "primary";

      create table workspace (
        id uuid primary key,
        name text not null,
        slug text not null unique,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create table workspace_member (
        id uuid primary key,
        workspace_id uuid not null references workspace(id) on delete cascade,
        account_id uuid not null references account(id) on delete cascade,
        role text not null check (role in ('owner', 'admin', 'member')),
        created_at timestamptz not null default now(),
        unique (workspace_id, account_id)
      );
      create index workspace_member_account_idx on workspace_member(account_id);

      create table api_key (
        id uuid primary key,
        workspace_id uuid not null references workspace(id) on delete cascade,
        name text,
        secret_hash text not null unique,
        created_at timestamptz not null default now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      create index api_key_workspace_idx on api_key(workspace_id);

      create table session (
        id uuid primary key,
        kind text not null check (kind in ('account', 'workspace', 'guest', 'entry')),
        token_hash text not null unique,
        account_id uuid references account(id) on delete cascade,
        workspace_id uuid references workspace(id) on delete cascade,
        event_id uuid,
        subject_id text,
        data jsonb not null default '{}',
        expires_at timestamptz not null,
        last_used_at timestamptz not null default now(),
        revoked_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index session_account_idx on session(account_id);

      create table idempotency_record (
        scope text not null,
        key text not null,
        request_hash text not null,
        status integer,
        response_body jsonb,
        created_at timestamptz not null default now(),
        primary key (scope, key)
      );
      create index idempotency_record_created_idx on idempotency_record(created_at);

      create table domain_event (
        id uuid primary key,
        type text not null,
        workspace_id uuid not null,
        event_id uuid,
        payload jsonb not null,
        occurred_at timestamptz not null default now()
      );
      create index domain_event_workspace_idx on domain_event(workspace_id, occurred_at desc);

      -- Participant identities (users): pre-provisioned by externalSub, or bridged from an account.
      create table app_user (
        id uuid primary key,
        workspace_id uuid not null references workspace(id) on delete cascade,
        external_sub text not null,
        account_id uuid references account(id) on delete set null,
        email text,
        name text,
        picture text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (workspace_id, external_sub)
      );
      create unique index app_user_account_idx on app_user(workspace_id, account_id) where account_id is not null;

      create table service_key (
        id text primary key,
        value jsonb not null,
        created_at timestamptz not null default now()
      );
    `);
  }
}
