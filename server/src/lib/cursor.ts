import { invalidField } from './problem';

/**
 * The one page cursor of the API and the live gateway. Opaque to clients: base64url of the last row's
 * sort key, its parts joined by `|`. Each list names the shape of each part, so a cursor of another
 * list, or an edited one, is refused rather than misread.
 */
export const encodeCursor = (...parts: (string | number)[]): string =>
  Buffer.from(parts.join('|'), 'utf8').toString('base64url');

/** The parts of a cursor whose parts match `shapes` one for one, else null. */
export function readCursor(cursor: string, shapes: RegExp[]): string[] | null {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== shapes.length || !parts.every((p, i) => shapes[i]!.test(p))) return null;
  return parts;
}

/** `readCursor` for HTTP lists: a cursor that does not fit is 400 bad_request on `query.cursor`. */
export function decodeCursor(cursor: string, shapes: RegExp[]): string[] {
  const parts = readCursor(cursor, shapes);
  if (!parts) {
    throw invalidField('query.cursor', 'invalid_value', 'not a cursor this list returned');
  }
  return parts;
}

/** Shapes of cursor parts. */
export const cursorParts = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  /** PostgreSQL's timestamp with microseconds, in UTC. */
  microsTimestamp: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
  isoTimestamp: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
  integer: /^\d{1,18}$/,
  /** Any non-empty text without the separator. */
  text: /^[^|]+$/,
};

/** The cursor of lists ordered by (timestamp with microseconds, id): `encodeCursor(at, id)` read back. */
export function decodeTimeIdCursor(cursor: string): { at: string; id: string } {
  const [at, id] = decodeCursor(cursor, [cursorParts.microsTimestamp, cursorParts.uuid]);
  return { at: at!, id: id! };
}
