import { problem } from '../lib/problem';

/** Opaque to clients: base64url of `<createdAt with microseconds>|<id>`. */
export const encodeCursor = (at: string, id: string) =>
  Buffer.from(`${at}|${id}`, 'utf8').toString('base64url');

const shape =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function decodeCursor(cursor: string): { at: string; id: string } {
  const m = shape.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) {
    throw problem('bad_request', 'The cursor is not one this API returned', {
      errors: [{ path: 'query.cursor', message: 'Invalid cursor' }],
    });
  }
  return { at: m[1]!, id: m[2]! };
}
