/** Page size of the audience records' lists when the caller gives no `limit` (the maximum too). */
export const maxPageSize = 100;

/** Rows of one page read with one extra row: whether another page follows, and the page itself. */
export function pageOf<R>(rows: R[], limit: number): { rows: R[]; last: R | undefined } {
  return { rows: rows.slice(0, limit), last: rows.length > limit ? rows[limit - 1] : undefined };
}
