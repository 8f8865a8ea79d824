import type { ChatLogLine, EventRole } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../db/sql';
import { type PageInput, timeOrderedPage } from '../db/time-ordered-page';
import { eventOfWorkspace } from '../events/locks';
import type { Actor } from '../lib/actor';

interface Row {
  id: string;
  event_id: string;
  participant_id: string;
  author_name: string | null;
  role: EventRole;
  anonymous: boolean;
  text: string;
  sent_at: Date;
}

/** An event's chat log, oldest line first; the cursor is the last line's (sentAt, id). */
export async function listChat(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: PageInput,
): Promise<{ messages: ChatLogLine[]; nextCursor: string | null }> {
  await eventOfWorkspace(em, actor, eventId);
  const page = await timeOrderedPage<Row>(
    em,
    {
      select: `select id, event_id, participant_id, author_name, role, anonymous, text, sent_at
                 from live_chat_message where event_id = ?`,
      params: [eventId],
      time: 'sent_at',
    },
    input,
  );
  return {
    messages: page.rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      participantId: r.participant_id,
      authorName: r.anonymous ? null : r.author_name,
      role: r.role,
      anonymous: r.anonymous,
      text: r.text,
      sentAt: iso(r.sent_at)!,
    })),
    nextCursor: page.nextCursor,
  };
}
