import { Migration } from '@mikro-orm/migrations';

/**
 * Event invites and event sessions (entry, guest) reference their event, so deleting an event takes
 * them with it by cascade, like its phases and registrations. The identity tables came first, so the
 * keys are added here; orphans left by older versions are removed first.
 */
export class Migration20261122050000EventReferences extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      delete from invite where event_id is not null and not exists (select 1 from event e where e.id = invite.event_id);
      delete from session where event_id is not null and not exists (select 1 from event e where e.id = session.event_id);
      alter table invite add constraint invite_event_id_fkey foreign key (event_id) references event(id) on delete cascade;
      alter table session add constraint session_event_id_fkey foreign key (event_id) references event(id) on delete cascade;
      create index invite_event_idx on invite(event_id) where event_id is not null;
      create index session_event_idx on session(event_id) where event_id is not null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop index session_event_idx;
      drop index invite_event_idx;
      alter table session drop constraint session_event_id_fkey;
      alter table invite drop constraint invite_event_id_fkey;
    `);
  }
}
