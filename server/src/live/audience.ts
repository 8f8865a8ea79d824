import { cursorParts, encodeCursor, readCursor } from '../lib/cursor';
import { LiveError } from './connection';
import type { Handler } from './deps';
import type { PresenceInfo } from './presence-store';
import type { LivePresence } from './presence';

const defaultPageSize = 50;

/** The page cursor: the last participantId of the page (the shared codec, lib/cursor.ts). */
const cursorShape = [cursorParts.text];

/**
 * One page of who is present, in participantId order (the gateway's audience.list and the REST list
 * of the live room page alike); null when the cursor is not one this server gave out.
 */
export async function presentPage(
  presence: Pick<LivePresence, 'page'>,
  eventId: string,
  cursor: string | undefined,
  limit: number | undefined,
): Promise<{ page: PresenceInfo[]; nextCursor: string | null } | null> {
  const size = limit ?? defaultPageSize;
  const after = cursor ? (readCursor(cursor, cursorShape)?.[0] ?? '') : '';
  if (cursor && !after) return null;
  // One more than asked tells whether another page follows.
  const found = await presence.page(eventId, after, size + 1);
  const page = found.slice(0, size);
  const last = page[page.length - 1];
  return { page, nextCursor: found.length > size && last ? encodeCursor(last.participantId) : null };
}

/** Moderators page through who is present, in participantId order. */
export const listAudience: Handler<'audience.list'> = async (h, { cursor, limit, requestId }) => {
  const found = await presentPage(h.deps.presence, h.event.id, cursor, limit);
  if (!found) throw new LiveError('bad_request', 'cursor: not a cursor this gateway gave out');
  h.conn.send({
    type: 'audience.page',
    requestId: requestId ?? null,
    participants: found.page.map(({ participantId, name, role, anonymous }) => ({
      participantId,
      name,
      role,
      anonymous,
    })),
    nextCursor: found.nextCursor,
  });
};
