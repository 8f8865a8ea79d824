import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../lib/context';
import { sql } from '../db/sql';
import { tableNotesEmail } from '../email/templates';
import { hashSecret, newSecret, secretPrefixes } from '../lib/secrets';
import type { EngineName } from './summary-engine';
import type { BuiltTableNotes, ResolvedUser, TableInput } from './table-notes';

/** Table-notes tokens (`gcn_`) work this long. */
export const tableNotesTokenLifetimeMs = 90 * 24 * 3600 * 1000;

/** The page a table-notes email links to; the page reads GET /v1/public/events/{id}/table-summary?t=. */
export const tableNotesLink = (baseUrl: string, eventId: string, token: string) =>
  `${baseUrl}/events/${eventId}/table-notes?t=${encodeURIComponent(token)}`;

export interface PreparedTable {
  table: TableInput;
  notes: BuiltTableNotes;
  engine: EngineName;
  /** Table members who get the notes: resolved users with an email. */
  recipients: ResolvedUser[];
}

export interface PendingEmail {
  to: string;
  name: string | null;
  tableLabel: string;
  link: string;
}

export const tableLabel = (n: number) => `Table ${n}`;

/**
 * Writes each table's notes and one `gcn_` token per recipient (only the hash is stored), inside
 * the transcript's transaction. Returns the emails to queue in it.
 */
export async function storeTableNotes(
  tx: EntityManager,
  baseUrl: string,
  eventId: string,
  transcriptId: string,
  tables: PreparedTable[],
  now: Date,
): Promise<PendingEmail[]> {
  const emails: PendingEmail[] = [];
  const expiresAt = new Date(now.getTime() + tableNotesTokenLifetimeMs);
  for (const t of tables) {
    const notesId = randomUUID();
    await sql(
      tx,
      `insert into table_notes (id, event_id, transcript_id, room_id, table_number, summary, stats, people, engine, generated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        notesId,
        eventId,
        transcriptId,
        t.table.roomId,
        t.table.number,
        JSON.stringify(t.notes.summary),
        JSON.stringify(t.notes.stats),
        JSON.stringify(t.notes.people),
        t.engine,
        now,
      ],
    );
    for (const user of t.recipients) {
      const token = newSecret(secretPrefixes.tableNotes);
      await sql(
        tx,
        'insert into table_notes_token (token_hash, table_notes_id, event_id, user_id, expires_at) values (?, ?, ?, ?, ?)',
        [hashSecret(token), notesId, eventId, user.id, expiresAt],
      );
      emails.push({
        to: user.email!,
        name: user.name,
        tableLabel: tableLabel(t.table.number),
        link: tableNotesLink(baseUrl, eventId, token),
      });
    }
  }
  return emails;
}

/** Queues the table-notes emails in the transcript's transaction: a mail outage never undoes the ingest. */
export async function queueTableNotes(
  ctx: Pick<AppContext, 'emails'>,
  tx: EntityManager,
  eventTitle: string,
  emails: PendingEmail[],
) {
  for (const e of emails) await ctx.emails.enqueue(tx, tableNotesEmail(e.to, e.name, eventTitle, e.tableLabel, e.link));
}

/**
 * The workspace users that segment userIds name: by user id, else by externalSub (what a media
 * pipeline may know). Keyed by the segment's userId.
 */
export async function resolveUsers(
  em: EntityManager,
  workspaceId: string,
  userIds: string[],
): Promise<Map<string, ResolvedUser>> {
  const wanted = [...new Set(userIds)];
  const out = new Map<string, ResolvedUser>();
  if (!wanted.length) return out;
  const rows = await sql<{ id: string; external_sub: string; name: string | null; email: string | null }>(
    em,
    `select id, external_sub, name, email from app_user
      where workspace_id = ?
        and (id::text in (select jsonb_array_elements_text(?::jsonb))
             or external_sub in (select jsonb_array_elements_text(?::jsonb)))`,
    [workspaceId, JSON.stringify(wanted), JSON.stringify(wanted)],
  );
  for (const key of wanted) {
    const user = rows.find((r) => r.id === key.toLowerCase()) ?? rows.find((r) => r.external_sub === key);
    if (user) out.set(key, { id: user.id, name: user.name, email: user.email });
  }
  return out;
}
