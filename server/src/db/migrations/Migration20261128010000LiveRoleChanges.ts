import { Migration } from '@mikro-orm/migrations';

/**
 * A change of someone's event role (an event membership given, changed or removed; a workspace
 * membership, which makes owners and admins hosts, given, changed or removed) moves that person's
 * `participant_role_epoch` on and notifies `gc_live_roles`. Gateway tokens carry the epoch they were
 * minted at: the live gateway refuses one from an older epoch, and every process closes the person's
 * open sockets on the notification (docs/live-gateway.md). Triggers, not application code, so
 * cascades and manual SQL are covered too.
 */
export class Migration20261128010000LiveRoleChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table participant_role_epoch (
        user_id uuid primary key references app_user(id) on delete cascade,
        workspace_id uuid not null references workspace(id) on delete cascade,
        epoch bigint not null
      );

      create function gc_bump_role_epochs(ws uuid, users uuid[]) returns void language plpgsql as $$
      begin
        insert into participant_role_epoch (user_id, workspace_id, epoch)
          select u.id, u.workspace_id, 1 from app_user u where u.id = any(users) and u.workspace_id = ws
          on conflict (user_id) do update set epoch = participant_role_epoch.epoch + 1;
        perform pg_notify('gc_live_roles', json_build_object('workspaceId', ws, 'userIds', users)::text);
      end $$;

      create function gc_event_role_changed() returns trigger language plpgsql as $$
      declare m event_membership;
      begin
        m := case when tg_op = 'DELETE' then old else new end;
        perform gc_bump_role_epochs(u.workspace_id, array[u.id]) from app_user u where u.id = m.user_id;
        if tg_op = 'UPDATE' and old.user_id <> new.user_id then
          perform gc_bump_role_epochs(u.workspace_id, array[u.id]) from app_user u where u.id = old.user_id;
        end if;
        return null;
      end $$;
      create trigger event_membership_role_added after insert or delete on event_membership
        for each row execute function gc_event_role_changed();
      create trigger event_membership_role_changed after update on event_membership
        for each row when (old.role is distinct from new.role or old.user_id <> new.user_id
                           or old.event_id <> new.event_id)
        execute function gc_event_role_changed();

      create function gc_workspace_role_changed() returns trigger language plpgsql as $$
      declare w workspace_member;
      begin
        w := case when tg_op = 'DELETE' then old else new end;
        perform gc_bump_role_epochs(w.workspace_id, array(
          select u.id from app_user u
           where u.workspace_id = w.workspace_id
             and (u.account_id = w.account_id or u.external_sub = 'account:' || w.account_id)));
        return null;
      end $$;
      create trigger workspace_member_role_added after insert or delete on workspace_member
        for each row execute function gc_workspace_role_changed();
      create trigger workspace_member_role_changed after update on workspace_member
        for each row when (old.role is distinct from new.role or old.account_id <> new.account_id)
        execute function gc_workspace_role_changed();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger workspace_member_role_changed on workspace_member;
      drop trigger workspace_member_role_added on workspace_member;
      drop function gc_workspace_role_changed();
      drop trigger event_membership_role_changed on event_membership;
      drop trigger event_membership_role_added on event_membership;
      drop function gc_event_role_changed();
      drop function gc_bump_role_epochs(uuid, uuid[]);
      drop table participant_role_epoch;
    `);
  }
}
