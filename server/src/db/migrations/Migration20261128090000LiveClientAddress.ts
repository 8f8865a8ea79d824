import { Migration } from '@mikro-orm/migrations';

/**
 * The client address each participant of an event last connected from (live/control/client-addresses.ts):
 * what a ban with `clientAddress` covers when the participant is no longer connected, whichever process
 * served them. One row per participant, refreshed as each connection closes; purged by retention.
 */
export class Migration20261128090000LiveClientAddress extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table live_client_address (
        workspace_id uuid not null references workspace(id) on delete cascade,
        event_id uuid not null references event(id) on delete cascade,
        participant_id text not null,
        client_address text not null,
        seen_at timestamptz not null default now(),
        primary key (event_id, participant_id)
      );
      create index live_client_address_seen_idx on live_client_address (seen_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table live_client_address;');
  }
}
