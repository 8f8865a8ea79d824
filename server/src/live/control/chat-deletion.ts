import type { LiveServerMessage } from '@gathercast/contract';
import type pg from 'pg';
import type { Envelope, MessageEnvelope } from '../fanout';

/**
 * Deleting a chat line, in one place. The line leaves the event's chat log (live_chat_message, the
 * REST chat list) in the statement that records the deletion in live_deletion, and every backlog
 * replayed to a resuming socket has the line replaced by its `chat.deleted`, or left out of a large
 * audience's `batch` frame (scrubBacklog below), so its text never goes out again and the stream
 * keeps every seq.
 */
export async function deleteChatLine(
  db: Pick<pg.Pool, 'query'>,
  at: { workspaceId: string; eventId: string },
  messageId: string,
): Promise<void> {
  await db.query(
    `with logged as (delete from live_chat_message where event_id = $2 and id = $3)
     insert into live_deletion (workspace_id, event_id, kind, item_id) values ($1, $2, 'chat', $3)
     on conflict do nothing`,
    [at.workspaceId, at.eventId, messageId],
  );
}

type Deletable = { kind: 'chat' | 'question'; id: string };

/** What a deletion can name in one message: a chat line or a new question. */
function deletableIn(m: LiveServerMessage | undefined): Deletable | null {
  if (m?.type === 'chat.message') return m.id ? { kind: 'chat', id: m.id } : null;
  if (m?.type === 'question.created') return { kind: 'question', id: m.question.id };
  return null;
}

/** Everything a deletion can name in a fanned-out message, a large audience's `batch` frame included. */
function deletables(envelope: Envelope): Deletable[] {
  const m = envelope.message;
  if (m?.type === 'batch') return m.messages.flatMap((inner) => deletableIn(inner) ?? []);
  const d = deletableIn(m);
  return d ? [d] : [];
}

/**
 * A backlog with deleted chat lines and questions replaced by their deletion (same seq). In a `batch`
 * frame they are left out instead (a batch carries no deletions): the frame keeps its seq and the rest
 * of its interval, and the deletion itself is a later message of the history.
 */
export async function scrubBacklog(
  db: Pick<pg.Pool, 'query'>,
  eventId: string,
  envelopes: Envelope[],
): Promise<Envelope[]> {
  if (!envelopes.some((e) => deletables(e).length)) return envelopes;
  const { rows } = await db.query<{ kind: string; item_id: string }>(
    'select kind, item_id from live_deletion where event_id = $1',
    [eventId],
  );
  if (!rows.length) return envelopes;
  const gone = new Set(rows.map((r) => `${r.kind}/${r.item_id}`));
  const isGone = (d: Deletable | null) => d !== null && gone.has(`${d.kind}/${d.id}`);
  return envelopes.map((e): Envelope => {
    const m = e.message;
    if (!m || !deletables(e).some(isGone)) return e;
    // Only a message envelope names something deletable.
    const message: LiveServerMessage =
      m.type === 'batch'
        ? { ...m, messages: m.messages.filter((inner) => !isGone(deletableIn(inner))) }
        : m.type === 'chat.message'
          ? { type: 'chat.deleted', messageId: m.id! }
          : { type: 'question.deleted', questionId: deletableIn(m)!.id };
    return { ...(e as MessageEnvelope), message };
  });
}
