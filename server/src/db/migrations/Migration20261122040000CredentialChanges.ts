import { Migration } from '@mikro-orm/migrations';

/**
 * Every committed change that can withdraw or alter a credential (a revoked or deleted API key or
 * session, any change to workspace membership) notifies `gc_credentials`, so every server process
 * drops its credential cache (src/lib/credential-cache.ts). Triggers, not application code, so
 * cascades and manual SQL are covered too. PostgreSQL folds identical notifications of one
 * transaction into one, so a bulk revocation notifies once.
 */
export class Migration20261122040000CredentialChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create function gc_notify_credentials_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('gc_credentials', tg_table_name);
        return null;
      end $$;

      -- Row triggers with a WHEN clause: last-used stamps and sliding renewals (which only extend
      -- expires_at) do not notify; everything that can withdraw or alter a credential does.
      create trigger api_key_credentials_changed
        after update on api_key for each row
        when (new.revoked_at is distinct from old.revoked_at or new.secret_hash <> old.secret_hash
              or new.workspace_id <> old.workspace_id)
        execute function gc_notify_credentials_changed();
      create trigger api_key_credentials_deleted
        after delete on api_key for each statement execute function gc_notify_credentials_changed();
      create trigger session_credentials_changed
        after update on session for each row
        when (new.revoked_at is distinct from old.revoked_at or new.expires_at < old.expires_at
              or new.token_hash <> old.token_hash or new.kind <> old.kind
              or new.account_id is distinct from old.account_id or new.workspace_id is distinct from old.workspace_id
              or new.event_id is distinct from old.event_id or new.subject_id is distinct from old.subject_id
              or new.data is distinct from old.data)
        execute function gc_notify_credentials_changed();
      create trigger session_credentials_deleted
        after delete on session for each statement execute function gc_notify_credentials_changed();
      create trigger workspace_member_credentials_changed
        after insert or update or delete on workspace_member
        for each statement execute function gc_notify_credentials_changed();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger workspace_member_credentials_changed on workspace_member;
      drop trigger session_credentials_deleted on session;
      drop trigger session_credentials_changed on session;
      drop trigger api_key_credentials_deleted on api_key;
      drop trigger api_key_credentials_changed on api_key;
      drop function gc_notify_credentials_changed();
    `);
  }
}
