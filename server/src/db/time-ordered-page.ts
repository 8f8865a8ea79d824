import { decodeTimeIdCursor, encodeCursor } from '../lib/cursor';
import { type SqlTx, sql } from './sql';

/** Page size of a list when the caller gives no `limit` (the contract's maximum too). */
export const defaultPageSize = 100;

/** A list's paging input: the contract's `cursor` and `limit` query. */
export interface PageInput {
  cursor?: string;
  limit?: number;
}

/** A list read in time order: its rows' `select … from … where …`, without order or limit. */
export interface TimeOrderedList {
  /** The rows' statement; each row has an `id` (uuid) column and the `time` column. */
  select: string;
  params?: unknown[];
  /** The timestamptz column of the order (`created_at` unless said). */
  time?: string;
  /** Newest first (`time desc, id desc`); oldest first otherwise. */
  newestFirst?: boolean;
}

/**
 * One page of a list in (time, id) order, creation time unless the list names another: the `limit`
 * rows after the cursor's row, read by keyset (never an offset, so rows added while a client pages
 * neither repeat nor hide others), and one more to know whether a page follows. The cursor is the
 * last row's (time to the microsecond, id), the one (time, id) cursor of `lib/cursor.ts`; one that
 * does not fit is 400 `bad_request` on `query.cursor`.
 */
export async function timeOrderedPage<R extends { id: string }>(
  db: SqlTx,
  list: TimeOrderedList,
  input: PageInput,
): Promise<{ rows: R[]; nextCursor: string | null }> {
  const limit = input.limit ?? defaultPageSize;
  const after = input.cursor === undefined ? undefined : decodeTimeIdCursor(input.cursor);
  const time = `page.${list.time ?? 'created_at'}`;
  const [direction, beyond] = list.newestFirst ? ['desc', '<'] : ['asc', '>'];
  const rows = await sql<R & { page_at: string }>(
    db,
    `select page.*, to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as page_at
       from (${list.select}) page
      ${after ? `where (${time}, page.id) ${beyond} (?::timestamptz, ?::uuid)` : ''}
      order by ${time} ${direction}, page.id ${direction}
      limit ?`,
    [...(list.params ?? []), ...(after ? [after.at, after.id] : []), limit + 1],
  );
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { rows: rows.slice(0, limit), nextCursor: last ? encodeCursor(last.page_at, last.id) : null };
}
