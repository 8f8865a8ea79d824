import { Migration } from '@mikro-orm/migrations';

/**
 * Fair webhook delivery across workspaces: each enqueued job's priority is its workspace's count of
 * pending deliveries (webhooks/queue.ts), read through this index.
 */
export class Migration20261124201000WebhookFairness extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index webhook_delivery_workspace_pending_idx on webhook_delivery(workspace_id) where status = 'pending';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index webhook_delivery_workspace_pending_idx;');
  }
}
