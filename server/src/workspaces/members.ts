import type { EntityManager } from '@mikro-orm/postgresql';
import { problem } from '../lib/problem';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { iso, sql } from '../db/sql';
import { ofWorkspace } from '../lib/tenancy';
import type { z } from 'zod';
import type { memberSchema } from '@gathercast/contract';

export type MemberRole = 'owner' | 'admin' | 'member';

/** As the contract says (`memberSchema`). */
export type MemberView = z.infer<typeof memberSchema>;

interface MemberRow {
  id: string;
  account_id: string;
  name: string;
  email: string | null;
  role: MemberRole;
  created_at: Date;
}

const memberSelect = `
  select m.id, m.account_id, a.name, e.email, m.role, m.created_at
    from workspace_member m
    join account a on a.id = m.account_id
    left join account_email e on e.account_id = m.account_id and e."primary"`;

const view = (r: MemberRow): MemberView => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  email: r.email ?? '',
  role: r.role,
  joinedAt: iso(r.created_at)!,
});

export async function listMembers(em: EntityManager, workspaceId: string, input: PageInput) {
  const page = await timeOrderedPage<MemberRow>(em, { select: `${memberSelect} where m.workspace_id = ?`, params: [workspaceId] }, input);
  return { members: page.rows.map(view), nextCursor: page.nextCursor };
}

async function findMember(em: EntityManager, workspaceId: string, memberId: string): Promise<MemberView> {
  const rows = await sql<MemberRow>(em, `${memberSelect} where m.workspace_id = ? and m.id = ?`, [workspaceId, memberId]);
  return view(ofWorkspace(rows[0], 'Member'));
}

const ownersUntouchable = () => problem('forbidden', 'Owners cannot be changed or removed through the member endpoints');

/** Owner/admin only (the policy checked that); owners are untouchable. */
export async function changeMemberRole(
  em: EntityManager,
  workspaceId: string,
  memberId: string,
  role: 'member' | 'admin',
): Promise<MemberView> {
  const member = await findMember(em, workspaceId, memberId);
  if (member.role === 'owner') throw ownersUntouchable();
  await sql(em, 'update workspace_member set role = ? where id = ?', [role, memberId]);
  return { ...member, role };
}

export async function removeMember(em: EntityManager, workspaceId: string, memberId: string): Promise<void> {
  const member = await findMember(em, workspaceId, memberId);
  if (member.role === 'owner') throw ownersUntouchable();
  await sql(em, 'delete from workspace_member where id = ?', [memberId]);
}

/** The caller leaves; the only owner cannot (the workspace would be left without one). */
export async function leaveWorkspace(em: EntityManager, workspaceId: string, accountId: string): Promise<void> {
  await em.transactional(async (tx) => {
    // Lock the owners so two owners leaving at once cannot both succeed.
    const owners = await sql<{ account_id: string }>(
      tx,
      `select account_id from workspace_member where workspace_id = ? and role = 'owner' for update`,
      [workspaceId],
    );
    if (owners.length === 1 && owners[0]!.account_id === accountId) {
      throw problem('conflict', 'The only owner cannot leave the workspace');
    }
    await sql(tx, 'delete from workspace_member where workspace_id = ? and account_id = ?', [workspaceId, accountId]);
  });
}

/** Adds the account with the role, or raises its role (never lowers one, never touches an owner). */
export async function addMember(em: EntityManager, workspaceId: string, accountId: string, role: 'member' | 'admin'): Promise<void> {
  await sql(
    em,
    `insert into workspace_member (id, workspace_id, account_id, role) values (gen_random_uuid(), ?, ?, ?)
     on conflict (workspace_id, account_id) do update set role = excluded.role
       where workspace_member.role = 'member' and excluded.role = 'admin'`,
    [workspaceId, accountId, role],
  );
}
