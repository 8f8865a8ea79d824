import { Migration } from '@mikro-orm/migrations';

/**
 * Guest integrations (partners allowed to issue guest JWTs) and the rule that guest sessions end with
 * their event: a trigger cuts every guest session of an event short when the event ends, whichever
 * path ends it (end, the last advance, manual SQL). Shortening expires_at fires the session trigger of
 * migration CredentialChanges, so cached credentials are dropped too.
 */
export class Migration20261122080000GuestIntegrations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table guest_integration (
        id uuid primary key,
        workspace_id uuid not null references workspace(id) on delete cascade,
        issuer text not null check (length(issuer) between 1 and 500),
        jwks_url text,
        public_key_pem text,
        created_at timestamptz not null default now(),
        revoked_at timestamptz,
        constraint guest_integration_one_key_source check ((jwks_url is null) <> (public_key_pem is null))
      );
      create index guest_integration_active_issuer_idx on guest_integration (workspace_id, issuer)
        where revoked_at is null;
      create index guest_integration_workspace_created_idx on guest_integration (workspace_id, created_at, id);

      create function gc_end_guest_sessions() returns trigger language plpgsql as $$
      begin
        update session set expires_at = now()
         where event_id = new.id and kind = 'guest' and revoked_at is null and expires_at > now();
        return null;
      end $$;
      create trigger event_ended_ends_guest_sessions
        after update of status on event for each row
        when (new.status = 'ended' and old.status is distinct from 'ended')
        execute function gc_end_guest_sessions();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger event_ended_ends_guest_sessions on event;
      drop function gc_end_guest_sessions();
      drop table guest_integration;
    `);
  }
}
