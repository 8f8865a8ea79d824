import { Migration } from '@mikro-orm/migrations';

/**
 * Scoped API keys: the scopes a key holds (`*` for everything, the default, so every key made before
 * keeps its full access) and the one event it may be restricted to. A key's scopes and event never
 * change after creation; changing them would need a new key.
 */
export class Migration20261128060000ApiKeyScopes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table api_key
        add column scopes text[] not null default '{*}',
        add column event_id uuid references event(id) on delete cascade;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('alter table api_key drop column scopes, drop column event_id;');
  }
}
