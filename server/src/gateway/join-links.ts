import { randomUUID } from 'node:crypto';
import type { EventRole, Modality } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, sql } from '../db/sql';
import { eventOfWorkspace } from '../events/locks';
import type { Actor } from '../lib/actor';
import { decodeTimeIdCursor, encodeCursor } from '../lib/cursor';
import { notFound } from '../lib/problem';
import { hashSecret, newSecret, secretPrefixes } from '../lib/secrets';
import type { TokenDeps } from './gateway-token-service';
import { type HolderInput, type MintedToken, mintFor, openEvent, resolveHolder } from './server-minted';
import { ofWorkspace } from '../lib/tenancy';

export interface JoinLink {
  id: string;
  eventId: string;
  participantId: string;
  userId: string | null;
  role: EventRole | null;
  joinUrl: string;
  createdAt: string;
}

/** `<public base URL>/v1/join/<code>`: a GET answers a fresh gateway token, no credentials needed. */
const joinUrlOf = (publicBaseUrl: string, code: string) =>
  `${publicBaseUrl.replace(/\/+$/, '')}/v1/join/${code}`;

/** A personal, revocable link for one person; the code is shown once, only its hash is kept. */
export async function createJoinLink(
  em: EntityManager,
  deps: TokenDeps,
  actor: Actor,
  eventId: string,
  input: HolderInput,
): Promise<JoinLink> {
  await openEvent(deps, actor.workspaceId, eventId);
  const holder = await resolveHolder(em, actor, eventId, input);
  const code = newSecret(secretPrefixes.joinLink);
  const [row] = await sql<{ id: string; created_at: Date }>(
    em,
    `insert into live_join_link (id, workspace_id, event_id, code_hash, user_id, registration_id, participant_id, name, role)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id, created_at`,
    [
      randomUUID(),
      actor.workspaceId,
      eventId,
      hashSecret(code),
      holder.userId,
      input.registration?.id ?? null,
      holder.participantId,
      holder.name,
      holder.role,
    ],
  );
  return {
    id: row!.id,
    eventId,
    participantId: holder.participantId,
    userId: holder.userId,
    role: holder.role,
    joinUrl: joinUrlOf(deps.publicBaseUrl, code),
    createdAt: iso(row!.created_at)!,
  };
}

/** A join link as listed: everything but its URL, whose code only exists hashed after creation. */
export interface ListedJoinLink extends Omit<JoinLink, 'joinUrl'> {
  name: string | null;
  registrationId: string | null;
  revokedAt: string | null;
}

const pageSize = 100;

/** The event's join links, oldest first; the cursor is the last row's (createdAt, id). */
export async function listJoinLinks(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: { cursor?: string; limit?: number; status?: 'active' | 'revoked' },
): Promise<{ joinLinks: ListedJoinLink[]; nextCursor: string | null }> {
  await eventOfWorkspace(em, actor, eventId);
  const limit = input.limit ?? pageSize;
  const after = input.cursor === undefined ? undefined : decodeTimeIdCursor(input.cursor);
  const rows = await sql<{
    id: string;
    participant_id: string;
    user_id: string | null;
    registration_id: string | null;
    name: string | null;
    role: EventRole | null;
    created_at: Date;
    revoked_at: Date | null;
    cursor_at: string;
  }>(
    em,
    `select id, participant_id, user_id, registration_id, name, role, created_at, revoked_at,
            to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
       from live_join_link
      where event_id = ? and workspace_id = ?
        and (?::text is null or (revoked_at is not null) = (?::text = 'revoked'))
        and (?::timestamptz is null or (created_at, id) > (?::timestamptz, ?::uuid))
      order by created_at, id limit ?`,
    [
      eventId,
      actor.workspaceId,
      input.status ?? null,
      input.status ?? null,
      after?.at ?? null,
      after?.at ?? null,
      after?.id ?? null,
      limit + 1,
    ],
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    joinLinks: page.map((r) => ({
      id: r.id,
      eventId,
      participantId: r.participant_id,
      userId: r.user_id,
      registrationId: r.registration_id,
      name: r.name,
      role: r.role,
      createdAt: iso(r.created_at)!,
      revokedAt: iso(r.revoked_at),
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.cursor_at, last.id) : null,
  };
}

export async function revokeJoinLink(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  linkId: string,
): Promise<void> {
  const rows = await sql(
    em,
    `update live_join_link set revoked_at = coalesce(revoked_at, now())
      where id = ? and event_id = ? and workspace_id = ? returning id`,
    [linkId, eventId, actor.workspaceId],
  );
  ofWorkspace(rows[0], 'Join link');
}

/** GET /v1/join/{code}: the link's person gets a fresh token (404 once revoked, as for an unknown code). */
export async function openJoinLink(em: EntityManager, deps: TokenDeps, code: string): Promise<MintedToken> {
  const [link] = await sql<{
    workspace_id: string;
    event_id: string;
    participant_id: string;
    user_id: string | null;
    name: string | null;
    role: EventRole | null;
  }>(
    em,
    `select workspace_id, event_id, participant_id, user_id, name, role
       from live_join_link where code_hash = ? and revoked_at is null`,
    [hashSecret(code)],
  );
  if (!link) throw notFound('Join link');
  const event = await openEvent(deps, link.workspace_id, link.event_id);
  // A user's current name (it may have changed since the link was made).
  const [user] = link.user_id
    ? await sql<{ name: string | null }>(em, 'select name from app_user where id = ?', [link.user_id])
    : [];
  if (link.user_id && !user) throw notFound('Join link');
  return mintFor(em, deps, event as typeof event & { modality: Modality }, {
    participantId: link.participant_id,
    userId: link.user_id,
    name: user ? user.name : link.name,
    role: link.role,
  });
}
