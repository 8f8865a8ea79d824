import { Migration } from '@mikro-orm/migrations';

/**
 * A manual retry asked for while an attempt is in flight is remembered, so the attempt's outcome
 * cannot swallow it: when that attempt is recorded, the delivery is queued again at once.
 */
export class Migration20261122060000DeliveryRetryRequests extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table webhook_delivery add column retry_requested boolean not null default false;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table webhook_delivery drop column retry_requested;');
  }
}
