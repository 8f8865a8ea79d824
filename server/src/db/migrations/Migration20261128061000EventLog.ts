import { Migration } from '@mikro-orm/migrations';

/**
 * The integration feed (docs/webhooks.md, "The event log"): every domain event gets the next number
 * of its workspace's sequence. `workspace_event_seq` holds the last number given; the row is updated
 * in the transaction that records the events, so its lock orders the workspace's recording
 * transactions: numbers become visible in commit order and a rolled-back change gives its numbers
 * back (no gaps). Events recorded before this migration are numbered in the order they occurred.
 * Webhook endpoints can also be limited to some events (`event_ids`; empty: every event).
 */
export class Migration20261128061000EventLog extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table workspace_event_seq (
        workspace_id uuid primary key,
        last_seq bigint not null
      );
      alter table domain_event add column seq bigint;
      update domain_event d set seq = n.seq
        from (select id, row_number() over (partition by workspace_id order by occurred_at, id) as seq from domain_event) n
        where n.id = d.id;
      insert into workspace_event_seq (workspace_id, last_seq)
        select workspace_id, max(seq) from domain_event group by workspace_id;
      create unique index domain_event_workspace_seq_idx on domain_event(workspace_id, seq);
      alter table webhook_endpoint add column event_ids jsonb not null default '[]';
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table webhook_endpoint drop column event_ids;
      drop index domain_event_workspace_seq_idx;
      alter table domain_event drop column seq;
      drop table workspace_event_seq;
    `);
  }
}
