/**
 * List pages rendered as JSON by PostgreSQL: one query answers the page's items as one JSON text,
 * byte-identical to `JSON.stringify` of the objects the hand-written mapping builds (same keys in the
 * same order, timestamps as `Date#toISOString()` prints them), so Node neither parses rows into objects
 * nor serializes them again.
 *
 * jsonb values are the exception: PostgreSQL prints them with spaces, and its numbers and key order can
 * differ from JavaScript's. `{}`, `[]` and null are rendered in SQL; any other value comes back beside the
 * text (a control character marks its place, which rendered JSON never contains raw) and is re-serialized
 * the way `JSON.parse` + `JSON.stringify` always printed it.
 */

export type JsonFieldKind =
  | 'text'
  /** A text column whose values are plain identifiers (check-constrained): nothing to escape. */
  | 'enum'
  | 'uuid'
  | 'boolean'
  | 'integer'
  /** Millisecond precision, truncated, UTC with `Z`: what `new Date(value).toISOString()` gives. */
  | 'timestamp'
  | 'jsonb';

export interface JsonField {
  /** The key in the response object. */
  key: string;
  /** A column of the listed table. */
  column: string;
  kind: JsonFieldKind;
}

export interface JsonPageQuery {
  /** The listed table. */
  from: string;
  /** Which rows (may use parameters). */
  where: string;
  /** A total order of the rows, e.g. `created_at desc, id desc`. */
  orderBy: string;
  /** The page size, as SQL (a parameter such as `$2`). */
  limit: string;
  /** SQL expressions over the page's last row, answered as text when rows follow (a cursor's parts). */
  next: Record<string, string>;
}

export interface JsonPage {
  /** The items as JSON array elements, comma-separated (empty for an empty page). */
  items: string;
  /** The `next` expressions of the page's last row when rows follow it; null on the last page. */
  next: Record<string, string> | null;
}

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

const isTrivialJsonb = (column: string) => `(${column} = '{}'::jsonb or ${column} = '[]'::jsonb)`;

/** The value as JSON text; a non-trivial jsonb becomes the marker character `marker`. */
function valueSql({ column, kind }: JsonField, marker: number): string {
  switch (kind) {
    case 'text':
      return `coalesce(to_json(${column})::text, 'null')`;
    case 'enum':
    case 'uuid':
      return `coalesce('"' || ${column} || '"', 'null')`;
    case 'boolean':
      return `case when ${column} then 'true' when not ${column} then 'false' else 'null' end`;
    case 'integer':
      return `coalesce(${column}::text, 'null')`;
    case 'timestamp':
      return `coalesce('"' || to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;
    case 'jsonb':
      return `case when ${column} is null then 'null' when ${isTrivialJsonb(column)} then ${column}::text else chr(${marker}) end`;
  }
}

/** jsonb text as `JSON.stringify(JSON.parse(text))` prints it. */
export const jsonbAsJavaScriptJson = (text: string): string => JSON.stringify(JSON.parse(text));

// biome-ignore lint/suspicious/noControlCharactersInRegex: the markers are control characters on purpose
const markerPattern = /[\x01-\x1f]/g;

/**
 * The SQL of one page (the first `limit` rows in `orderBy` order) and how to read its single result
 * row. `fields` are the response object's keys in order.
 */
export function jsonPageQuery(fields: readonly JsonField[], q: JsonPageQuery) {
  const jsonbFields = fields.filter((f) => f.kind === 'jsonb');
  if (jsonbFields.length > 31) throw new Error('at most 31 jsonb fields per object');
  const marker = (f: JsonField) => 1 + jsonbFields.indexOf(f);
  const rowSql = fields
    .map(
      (f, i) =>
        `${sqlString(`${i === 0 ? '{' : ','}${JSON.stringify(f.key)}:`)} || ${valueSql(f, marker(f))}`,
    )
    .join(' || ');
  const onPage = `page_position <= ${q.limit}`;
  const nextItems = Object.entries(q.next).map(
    ([name, sql]) => `max(case when page_position = ${q.limit} then (${sql})::text end) as next_${name}`,
  );
  const jsonbItems = jsonbFields.map(
    (f, i) =>
      `array_agg(${f.column}::text order by page_position) filter (where ${onPage} and ${f.column} is not null and not ${isTrivialJsonb(f.column)}) as jsonb_${i}`,
  );
  // One result row: the rows' JSON joined in order, whether rows follow, the cursor parts, the jsonb values.
  const results = [
    `coalesce(string_agg(${rowSql} || '}', ',' order by page_position) filter (where ${onPage}), '') as items`,
    `count(*) > ${q.limit} as more`,
    ...nextItems,
    ...jsonbItems,
  ];
  const text = `with page as (
  select row_number() over (order by ${q.orderBy}) as page_position, ${q.from}.*
    from ${q.from}
   where ${q.where}
   order by ${q.orderBy}
   limit ${q.limit} + 1
)
select ${results.join(',\n       ')}
  from page`;

  const read = (row: Record<string, unknown>): JsonPage => {
    let items = row.items as string;
    const values = jsonbFields.map((_, i) => (row[`jsonb_${i}`] as string[] | null) ?? []);
    if (values.some((v) => v.length > 0)) {
      const taken = values.map(() => 0);
      items = items.replace(markerPattern, (m) => {
        const field = m.charCodeAt(0) - 1;
        return jsonbAsJavaScriptJson(values[field]![taken[field]!++]!);
      });
    }
    const next = row.more
      ? Object.fromEntries(Object.keys(q.next).map((k) => [k, row[`next_${k}`] as string]))
      : null;
    return { items, next };
  };
  return { text, read };
}
