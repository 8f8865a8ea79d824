import type { EntityManager } from '@mikro-orm/postgresql';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { iso, sql } from '../db/sql';
import { notFound } from '../lib/problem';
import type { Actor } from '../lib/actor';
import type { z } from 'zod';
import type { questionSchema } from '@gathercast/contract';

/** As the contract says (`questionSchema`). */
export type QuestionView = z.infer<typeof questionSchema>;

interface Row {
  id: string;
  event_id: string;
  text: string;
  author_name: string | null;
  anonymous: boolean;
  status: QuestionView['status'];
  votes: number;
  created_at: Date;
}

/**
 * Questions with vote tallies, oldest first: votes keep arriving while a client pages, so an order by
 * votes could repeat or skip a question between pages. Anonymous questions carry no author name.
 */
export async function listQuestions(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: PageInput,
): Promise<{ questions: QuestionView[]; nextCursor: string | null }> {
  const event = await sql(em, 'select 1 from event where id = ? and workspace_id = ?', [
    eventId,
    actor.workspaceId,
  ]);
  if (!event[0]) throw notFound('Event');
  const page = await timeOrderedPage<Row>(
    em,
    {
      select: `select q.id, q.event_id, q.text, q.author_name, q.anonymous, q.status, q.created_at,
                      (select count(*) from question_vote v where v.question_id = q.id)::int as votes
                 from question q
                where q.event_id = ?`,
      params: [eventId],
    },
    input,
  );
  const questions = page.rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    text: r.text,
    authorName: r.anonymous ? null : r.author_name,
    anonymous: r.anonymous,
    status: r.status,
    votes: r.votes,
    createdAt: iso(r.created_at)!,
  }));
  return { questions, nextCursor: page.nextCursor };
}
