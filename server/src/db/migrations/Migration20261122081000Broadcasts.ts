import { Migration } from '@mikro-orm/migrations';

/**
 * Broadcasts (docs/broadcasts.md): one per broadcast phase that was ever started. The database itself
 * ends a broadcast when its phase ends (a trigger on `phase`), in the transaction of that change, so
 * no path that ends a phase (advance, end, a cascade) can leave a broadcast live behind it.
 */
export class Migration20261122081000Broadcasts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table broadcast (
        id uuid primary key,
        event_id uuid not null references event(id) on delete cascade,
        -- One broadcast per broadcast phase: a later broadcast phase gets a new broadcast.
        phase_id uuid not null unique references phase(id) on delete cascade,
        status text not null check (status in ('live', 'paused', 'ended')),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        -- When it last went live and was last paused.
        live_at timestamptz not null,
        paused_at timestamptz,
        ended_at timestamptz,
        check ((status = 'ended') = (ended_at is not null))
      );
      -- At most one running (live or paused) broadcast per event; also the lookup of the active one.
      create unique index broadcast_running_event_idx on broadcast(event_id) where status <> 'ended';

      create function broadcast_end_with_phase() returns trigger language plpgsql as $$
      begin
        update broadcast
           set status = 'ended', ended_at = coalesce(new.ended_at, now()), updated_at = now()
         where phase_id = new.id and status <> 'ended';
        return null;
      end;
      $$;

      create trigger phase_ended_ends_broadcast
        after update of status on phase
        for each row when (new.status = 'ended' and old.status <> 'ended')
        execute function broadcast_end_with_phase();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger phase_ended_ends_broadcast on phase;
      drop function broadcast_end_with_phase();
      drop table broadcast;
    `);
  }
}
