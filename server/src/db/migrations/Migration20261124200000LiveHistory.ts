import { Migration } from '@mikro-orm/migrations';

/**
 * Sequenced live event streams (docs/live-gateway.md "Sequence numbers and resume"): one counter per
 * event, and the event's recent fan-out history that a reconnecting socket replays from. Used when
 * REDIS_URL is unset (Redis keeps both itself otherwise).
 */
export class Migration20261124200000LiveHistory extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- The last seq handed out per event. No foreign key: a message about a just-deleted event must
      -- still get a number; a row is a few bytes per event ever live.
      create table live_stream (
        event_id uuid primary key,
        seq bigint not null
      );

      -- Recent envelopes per event, trimmed on every insert for that event (count and age), so no
      -- sweep over all events is needed; idle events' rows go with an indexed age delete.
      create table live_history (
        event_id uuid not null,
        seq bigint not null,
        payload text not null,
        created_at timestamptz not null default now(),
        primary key (event_id, seq)
      );
      create index live_history_created_idx on live_history(created_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table live_history, live_stream;');
  }
}
