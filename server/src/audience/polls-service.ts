import type { PollResult } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { iso } from '../db/sql';
import { type PageInput, timeOrderedPage } from '../db/time-ordered-page';
import { eventOfWorkspace } from '../events/locks';
import type { Actor } from '../lib/actor';

interface Row {
  id: string;
  event_id: string;
  question: string;
  options: string[];
  closed: boolean;
  created_at: Date;
  counts: Record<string, number>;
}

/**
 * An event's live polls with their exact counts (one row per vote in live_poll_vote), oldest first;
 * the cursor is the last poll's (createdAt, id).
 */
export async function listPolls(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: PageInput,
): Promise<{ polls: PollResult[]; nextCursor: string | null }> {
  await eventOfWorkspace(em, actor, eventId);
  const page = await timeOrderedPage<Row>(
    em,
    {
      select: `select p.id, p.event_id, p.question, p.options, p.closed, p.created_at,
                      coalesce((select json_object_agg(v.option, v.n)
                                  from (select option, count(*)::int as n from live_poll_vote
                                         where poll_id = p.id group by option) v), '{}'::json) as counts
                 from live_poll p
                where p.event_id = ?`,
      params: [eventId],
    },
    input,
  );
  return {
    polls: page.rows.map((r) => {
      const counts = r.options.map((_, i) => r.counts[String(i)] ?? 0);
      return {
        id: r.id,
        eventId: r.event_id,
        question: r.question,
        options: r.options,
        counts,
        votes: counts.reduce((a, b) => a + b, 0),
        closed: r.closed,
        createdAt: iso(r.created_at)!,
      };
    }),
    nextCursor: page.nextCursor,
  };
}
