import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import { eventOfWorkspace } from '../events/locks';
import type { Actor } from '../lib/actor';
import { problem } from '../lib/problem';
import { maxPageSize, pageOf } from './page';

/** Opaque to clients: base64url of `<count>|<emoji>` of the page's last total. */
const encodeCursor = (count: number, emoji: string) => Buffer.from(`${count}|${emoji}`).toString('base64url');

function decodeCursor(cursor: string): { count: number; emoji: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const count = Number(text.slice(0, bar));
  if (bar < 1 || !Number.isSafeInteger(count) || count < 1 || bar === text.length - 1)
    throw problem('bad_request', 'The cursor is not one this API returned', {
      errors: [{ path: 'query.cursor', code: 'invalid_value', message: 'Invalid cursor' }],
    });
  return { count, emoji: text.slice(bar + 1) };
}

/** An event's reaction totals per emoji, most sent first (ties by emoji). */
export async function listReactions(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: { cursor?: string; limit?: number },
): Promise<{ reactions: { emoji: string; count: number }[]; nextCursor: string | null }> {
  await eventOfWorkspace(em, actor, eventId);
  const limit = input.limit ?? maxPageSize;
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  const rows = await sql<{ emoji: string; count: string }>(
    em,
    `select emoji, count from live_reaction_total
      where event_id = ?${after ? ' and (count < ? or (count = ? and emoji > ?))' : ''}
      order by count desc, emoji
      limit ?`,
    after ? [eventId, after.count, after.count, after.emoji, limit + 1] : [eventId, limit + 1],
  );
  const page = pageOf(rows, limit);
  return {
    reactions: page.rows.map((r) => ({ emoji: r.emoji, count: Number(r.count) })),
    nextCursor: page.last ? encodeCursor(Number(page.last.count), page.last.emoji) : null,
  };
}
