import type { tableNotesSchema } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { iso, sql } from '../db/sql';
import { notFound } from '../lib/problem';
import { hashSecret, secretPrefixes } from '../lib/secrets';
import { tableLabel } from './table-notes-store';

type TableNotesView = z.infer<typeof tableNotesSchema>;

interface Row {
  room_id: string;
  table_number: number;
  summary: TableNotesView['summary'];
  stats: TableNotesView['stats'];
  people: TableNotesView['people'];
  generated_at: Date;
  user_id: string;
  user_name: string | null;
  event_id: string;
  title: string;
  scheduled_at: Date | null;
}

/**
 * One table's notes for the holder of a `gcn_` token (the token is the credential: no session, and
 * it works for private events too). The token names one table of one event and one recipient, so
 * the answer never holds another table's content. Unknown, expired or another event's token:
 * 404 not_found.
 */
export async function tableSummary(
  em: EntityManager,
  eventId: string,
  token: string,
): Promise<TableNotesView> {
  if (!token.startsWith(secretPrefixes.tableNotes)) throw notFound('Table notes');
  const [row] = await sql<Row>(
    em,
    `select n.room_id, n.table_number, n.summary, n.stats, n.people, n.generated_at,
            u.id as user_id, u.name as user_name, e.id as event_id, e.title, e.scheduled_at
       from table_notes_token t
       join table_notes n on n.id = t.table_notes_id
       join event e on e.id = n.event_id
       join app_user u on u.id = t.user_id
      where t.token_hash = ? and t.event_id = ? and t.expires_at > now()`,
    [hashSecret(token), eventId],
  );
  if (!row) throw notFound('Table notes');
  const me = row.people.find((p) => p.userId === row.user_id);
  return {
    event: { id: row.event_id, title: row.title, scheduledAt: iso(row.scheduled_at) },
    table: { roomId: row.room_id, number: row.table_number, label: tableLabel(row.table_number) },
    recipientUserId: row.user_id,
    recipientName: row.user_name ?? me?.name ?? null,
    summary: row.summary,
    stats: row.stats,
    people: row.people,
    generatedAt: iso(row.generated_at)!,
  };
}
