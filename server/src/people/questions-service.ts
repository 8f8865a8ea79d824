import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, sql } from '../db/sql';
import { notFound } from '../lib/problem';
import type { Actor } from '../lib/actor';

export interface QuestionView {
  id: string;
  eventId: string;
  text: string;
  authorName: string | null;
  anonymous: boolean;
  status: 'open' | 'answered' | 'dismissed';
  votes: number;
  createdAt: string;
}

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

/** Questions with vote tallies: most votes first, ties oldest first. Anonymous questions carry no author name. */
export async function listQuestions(
  em: EntityManager,
  actor: Actor,
  eventId: string,
): Promise<QuestionView[]> {
  const event = await sql(em, 'select 1 from event where id = ? and workspace_id = ?', [
    eventId,
    actor.workspaceId,
  ]);
  if (!event[0]) throw notFound('Event');
  const rows = await sql<Row>(
    em,
    `select q.id, q.event_id, q.text, q.author_name, q.anonymous, q.status, q.created_at,
            (select count(*) from question_vote v where v.question_id = q.id)::int as votes
       from question q
      where q.event_id = ?
      order by votes desc, q.created_at asc, q.id asc`,
    [eventId],
  );
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    text: r.text,
    authorName: r.anonymous ? null : r.author_name,
    anonymous: r.anonymous,
    status: r.status,
    votes: r.votes,
    createdAt: iso(r.created_at)!,
  }));
}
