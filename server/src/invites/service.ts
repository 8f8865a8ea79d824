import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { primaryEmailOf } from '../accounts/account-view';
import type { Config } from '../config';
import type { EmailQueue } from '../email/queue';
import { inviteEmail } from '../email/templates';
import { invalidField, problem } from '../lib/problem';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { iso, sql } from '../db/sql';
import type { Actor } from '../lib/actor';
import { hashSecret, newSecret, secretPrefixes } from '../lib/secrets';
import { bridgedUserFor } from '../people/users-service';
import { addMember } from '../workspaces/members';
import { eventOfWorkspace } from '../events/locks';
import { assertRoleOnEvent, grantEventMembership } from './event-targets';
import { ofWorkspace } from '../lib/tenancy';
import type { z } from 'zod';
import type { inviteSchema } from '@gathercast/contract';

export const inviteLifetimeMs = 14 * 24 * 3600 * 1000;

export interface InvitesDeps {
  config: Config;
  emails: EmailQueue;
  logger: Logger;
}

export type InviteStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

/** As the contract says (`inviteSchema`). */
export type InviteView = z.infer<typeof inviteSchema>;

interface InviteRow {
  id: string;
  workspace_id: string;
  kind: 'workspace' | 'event';
  email: string | null;
  role: string;
  event_id: string | null;
  status: 'pending' | 'accepted' | 'revoked';
  expires_at: Date;
  created_at: Date;
  accepted_at: Date | null;
}

/** Expiry is read, not written: a pending invite past its 14 days reads as expired. */
const statusOf = (r: InviteRow): InviteStatus =>
  r.status === 'pending' && new Date(r.expires_at).getTime() <= Date.now() ? 'expired' : r.status;

const view = (r: InviteRow): InviteView => ({
  id: r.id,
  workspaceId: r.workspace_id,
  kind: r.kind,
  email: r.email,
  role: r.role,
  eventId: r.event_id,
  status: statusOf(r),
  expiresAt: iso(r.expires_at)!,
  createdAt: iso(r.created_at)!,
  acceptedAt: iso(r.accepted_at),
});


export const inviteLink = (config: Config, token: string) => `${config.publicBaseUrl}/invites/${token}`;

export interface CreateInviteInput {
  kind: 'workspace' | 'event';
  email?: string;
  role?: string;
  eventId?: string;
}

/** Checks the kind's rules and returns the role and event to store. */
async function targetOf(em: EntityManager, workspaceId: string, input: CreateInviteInput) {
  if (input.kind === 'workspace') {
    if (input.eventId) throw invalidField('body.eventId', 'unknown_field', 'Only event invites name an event');
    const role = input.role ?? 'member';
    if (role !== 'member' && role !== 'admin') throw invalidField('body.role', 'invalid_enum', 'Workspace invites grant member or admin');
    return { role, event: null };
  }
  if (!input.eventId) throw invalidField('body.eventId', 'required', 'Required for event invites');
  if (!input.role) throw invalidField('body.role', 'required', 'Required for event invites');
  const event = await eventOfWorkspace(em, { workspaceId }, input.eventId);
  return { role: await assertRoleOnEvent(em, event.id, input.role), event };
}

/**
 * A 14-day gci_ invite. With an email it is sent there (queued in the invite's transaction; the URL
 * comes back only in email dev mode); without one it is a link invite and the URL comes back, once.
 */
export async function createInvite(
  em: EntityManager,
  deps: InvitesDeps,
  actor: Actor,
  input: CreateInviteInput,
): Promise<InviteView & { url?: string }> {
  const { role, event } = await targetOf(em, actor.workspaceId, input);
  const token = newSecret(secretPrefixes.invite);
  const url = inviteLink(deps.config, token);
  const row = await em.transactional(async (tx) => {
    const [row] = await sql<InviteRow>(
      tx,
      `insert into invite (id, workspace_id, kind, email, role, event_id, token_hash, invited_by_account_id, expires_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`,
      [
        randomUUID(),
        actor.workspaceId,
        input.kind,
        input.email ?? null,
        role,
        event?.id ?? null,
        hashSecret(token),
        actor.accountId ?? null,
        new Date(Date.now() + inviteLifetimeMs),
      ],
    );
    if (input.email) {
      const [ws] = await sql<{ name: string }>(tx, 'select name from workspace where id = ?', [actor.workspaceId]);
      const [inviter] = actor.accountId ? await sql<{ name: string }>(tx, 'select name from account where id = ?', [actor.accountId]) : [];
      const target = event ? `the event "${event.title}"` : `the workspace "${ws!.name}"`;
      await deps.emails.enqueue(tx, inviteEmail(input.email, inviter?.name ?? ws!.name, target, role, url));
    }
    return row!;
  });
  const showUrl = !input.email || deps.emails.devMode;
  return { ...view(row), ...(showUrl ? { url } : {}) };
}

/** Newest first. */
export async function listInvites(em: EntityManager, workspaceId: string, input: PageInput) {
  const page = await timeOrderedPage<InviteRow>(
    em,
    { select: 'select * from invite where workspace_id = ?', params: [workspaceId], newestFirst: true },
    input,
  );
  return { invites: page.rows.map(view), nextCursor: page.nextCursor };
}

/** Revoking is idempotent; an accepted invite cannot be revoked (its access was already granted). */
export async function revokeInvite(em: EntityManager, workspaceId: string, inviteId: string): Promise<void> {
  const [found] = await sql<InviteRow>(em, 'select * from invite where id = ? and workspace_id = ?', [inviteId, workspaceId]);
  const row = ofWorkspace(found, 'Invite');
  if (row.status === 'accepted') throw problem('invalid_state', 'The invite was already accepted');
  await sql(em, `update invite set status = 'revoked', revoked_at = coalesce(revoked_at, now()) where id = ?`, [inviteId]);
}

/** What the invite page shows; anyone holding the token may look. */
export async function previewInvite(em: EntityManager, token: string) {
  const [row] = await sql<InviteRow & { workspace_name: string }>(
    em,
    `select i.*, w.name as workspace_name from invite i join workspace w on w.id = i.workspace_id where i.token_hash = ?`,
    [hashSecret(token)],
  );
  ofWorkspace(row, 'Invite');
  const [event] = row.event_id ? await sql<{ id: string; title: string }>(em, 'select id, title from event where id = ?', [row.event_id]) : [];
  return {
    kind: row.kind,
    status: statusOf(row),
    role: row.role,
    email: row.email,
    workspace: { id: row.workspace_id, name: row.workspace_name },
    event: event ?? null,
    expiresAt: iso(row.expires_at)!,
  };
}

/**
 * Accepts with the signed-in account: a workspace invite adds a member; an event invite gives the
 * account's bridged user a membership of the event. An invite with an email only for an account
 * that owns that email. Unknown, used, revoked or expired tokens are 400 invalid_token.
 */
export async function acceptInvite(em: EntityManager, accountId: string, token: string) {
  return em.transactional(async (tx) => {
    const [row] = await sql<InviteRow>(tx, 'select * from invite where token_hash = ? for update', [hashSecret(token)]);
    if (!row || statusOf(row) !== 'pending') throw problem('invalid_token', 'The invite is unknown, expired, revoked or already used');
    if (row.email) {
      const owns = await sql(tx, 'select 1 from account_email where account_id = ? and email = ?', [accountId, row.email]);
      if (!owns.length) throw problem('forbidden', 'This invite is for another email address');
    }
    if (row.kind === 'workspace') {
      await addMember(tx, row.workspace_id, accountId, row.role as 'member' | 'admin');
    } else {
      const [account] = await sql<{ name: string }>(tx, 'select name from account where id = ?', [accountId]);
      const email = await primaryEmailOf(tx, accountId);
      const user = await bridgedUserFor(tx, row.workspace_id, { id: accountId, name: account!.name, email });
      await grantEventMembership(tx, row.event_id!, user.id, row.role);
    }
    await sql(tx, `update invite set status = 'accepted', accepted_at = now(), accepted_by_account_id = ? where id = ?`, [accountId, row.id]);
    return { kind: row.kind, workspaceId: row.workspace_id, eventId: row.event_id, role: row.role };
  });
}
