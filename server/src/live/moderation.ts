import type { LiveServerMessage } from '@gathercast/contract';
import type pg from 'pg';
import { LiveError } from './connection';
import { type Handler, toAll } from './deps';
import { isModerator } from './media';

/*
 * Hands, banners and announcements (chat and reactions: crowd/chat.ts, crowd/reactions.ts).
 * Announcements are only fanned out (a socket that connects later does not see them); raised hands
 * and the banner are kept in the database (live_hand, live_banner) so late joiners and every process
 * agree.
 */

export const raiseHand: Handler<'hand.raise'> = async (h) => {
  const { rowCount } = await h.deps.ctx.pool.query(
    'insert into live_hand (event_id, participant_id) values ($1, $2) on conflict do nothing',
    [h.event.id, h.conn.participantId],
  );
  if (rowCount) await toAll(h, { type: 'hand.raised', participantId: h.conn.participantId });
};

/** A participant lowers their own hand; hosts lower anyone's. Lowering a hand that is down changes nothing. */
export const lowerHand: Handler<'hand.lower'> = async (h, { participantId }) => {
  const target = participantId ?? h.conn.participantId;
  if (target !== h.conn.participantId && !isModerator(h.conn.role))
    throw new LiveError('forbidden', "Only hosts lower other people's hands");
  const { rowCount } = await h.deps.ctx.pool.query(
    'delete from live_hand where event_id = $1 and participant_id = $2',
    [h.event.id, target],
  );
  if (rowCount) await toAll(h, { type: 'hand.lowered', participantId: target });
};

export const showBanner: Handler<'banner.show'> = async (h, { text }) => {
  await h.deps.ctx.pool.query(
    `insert into live_banner (event_id, text) values ($1, $2)
     on conflict (event_id) do update set text = excluded.text, updated_at = now()`,
    [h.event.id, text],
  );
  await toAll(h, { type: 'banner', text });
};

export const clearBanner: Handler<'banner.clear'> = async (h) => {
  await h.deps.ctx.pool.query('delete from live_banner where event_id = $1', [h.event.id]);
  await toAll(h, { type: 'banner', text: null });
};

export const sendAnnouncement: Handler<'announcement.send'> = async (h, { text }) => {
  await toAll(h, { type: 'announcement', text });
};

/** What a socket sees right after its welcome: the banner and the raised hands. */
export async function moderationSnapshot(
  db: Pick<pg.Pool, 'query'>,
  eventId: string,
): Promise<LiveServerMessage[]> {
  const banner = await db.query<{ text: string }>('select text from live_banner where event_id = $1', [
    eventId,
  ]);
  const hands = await db.query<{ participant_id: string }>(
    'select participant_id from live_hand where event_id = $1 order by raised_at',
    [eventId],
  );
  return [
    ...banner.rows.map((r): LiveServerMessage => ({ type: 'banner', text: r.text })),
    ...hands.rows.map((r): LiveServerMessage => ({ type: 'hand.raised', participantId: r.participant_id })),
  ];
}
