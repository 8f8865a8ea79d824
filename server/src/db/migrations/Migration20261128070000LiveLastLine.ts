import { Migration } from '@mikro-orm/migrations';

/**
 * Slow mode shared by every server process without Redis (live/backends/slow-mode-pg.ts): when each
 * sender of an event last had a chat line accepted. One row per sender who chatted in slow mode.
 */
export class Migration20261128070000LiveLastLine extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table live_last_line (
        workspace_id uuid not null references workspace(id) on delete cascade,
        event_id uuid not null references event(id) on delete cascade,
        participant_id text not null,
        sent_at timestamptz not null,
        primary key (event_id, participant_id)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table live_last_line;');
  }
}
