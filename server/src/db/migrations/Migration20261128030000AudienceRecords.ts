import { Migration } from '@mikro-orm/migrations';

/**
 * What a live audience leaves behind, readable after the event (docs/audience-records.md): every chat
 * line accepted by the gateway, and the reaction totals per emoji. Both go with their event.
 */
export class Migration20261128030000AudienceRecords extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table live_chat_message (
        id uuid primary key,
        workspace_id uuid not null references workspace(id) on delete cascade,
        event_id uuid not null references event(id) on delete cascade,
        participant_id text not null,
        author_name text,
        role text not null,
        anonymous boolean not null,
        text text not null,
        sent_at timestamptz not null
      );
      create index live_chat_message_event_idx on live_chat_message(event_id, sent_at, id);

      create table live_reaction_total (
        workspace_id uuid not null references workspace(id) on delete cascade,
        event_id uuid not null references event(id) on delete cascade,
        emoji text not null,
        count bigint not null check (count > 0),
        updated_at timestamptz not null default now(),
        primary key (event_id, emoji)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table live_reaction_total, live_chat_message;');
  }
}
