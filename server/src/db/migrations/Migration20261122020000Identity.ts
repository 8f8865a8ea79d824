import { Migration } from '@mikro-orm/migrations';

/**
 * Identity and tenancy: one-time account tokens (verify, reset), invites, identity-provider sign-in
 * attempts and the shared rate-limit counters. `invite.event_id` has no foreign key so this
 * migration does not depend on the events one; invites of deleted events simply stop resolving.
 */
export class Migration20261122020000Identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table account_token (
        id uuid primary key,
        kind text not null check (kind in ('verify', 'reset')),
        token_hash text not null unique,
        account_id uuid not null references account(id) on delete cascade,
        email text not null,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index account_token_account_idx on account_token(account_id);

      create table invite (
        id uuid primary key,
        workspace_id uuid not null references workspace(id) on delete cascade,
        kind text not null check (kind in ('workspace', 'event')),
        email text,
        role text not null,
        event_id uuid,
        token_hash text not null unique,
        status text not null default 'pending' check (status in ('pending', 'accepted', 'revoked')),
        invited_by_account_id uuid references account(id) on delete set null,
        accepted_by_account_id uuid references account(id) on delete set null,
        expires_at timestamptz not null,
        accepted_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index invite_workspace_idx on invite(workspace_id, created_at desc);

      -- One row per identity-provider sign-in in progress: the PKCE verifier stays server-side.
      create table idp_login (
        state_hash text primary key,
        code_verifier text not null,
        nonce text not null,
        return_to text not null,
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      );

      -- rate-limiter-flexible's RateLimiterPostgres layout, shared by every server process.
      create table rate_limit (
        key varchar(255) primary key,
        points integer not null default 0,
        expire bigint
      );
    `);
  }
}
