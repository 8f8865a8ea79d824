import type { AttendanceSummary } from '@gathercast/contract';
import { type SqlTx, sql } from '../db/sql';

type Engagement = Pick<
  AttendanceSummary,
  'questions' | 'questionVotes' | 'polls' | 'pollVotes' | 'reactions' | 'chatLines'
>;

/**
 * What the audience did besides being there: questions and their votes, poll results, and the durable
 * audience records the gateway writes before fanning out: reaction totals (every emoji) and the chat
 * log's lines (a deleted line has left the log, so it is not counted).
 */
export async function engagementOf(db: SqlTx, eventId: string): Promise<Engagement> {
  const [counts] = await sql<{ questions: number; votes: number; reactions: number; chat_lines: number }>(
    db,
    `select (select count(*) from question where event_id = ?)::int as questions,
            (select count(*) from question_vote v join question q on q.id = v.question_id where q.event_id = ?)::int as votes,
            (select coalesce(sum(count), 0) from live_reaction_total where event_id = ?)::int as reactions,
            (select count(*) from live_chat_message where event_id = ?)::int as chat_lines`,
    [eventId, eventId, eventId, eventId],
  );
  const polls = await sql<{
    id: string;
    question: string;
    options: string[];
    counts: Record<string, number> | null;
  }>(
    db,
    `select p.id, p.question, p.options,
            (select jsonb_object_agg(v.option, v.n) from (select option, count(*)::int as n from live_poll_vote
               where poll_id = p.id group by option) v) as counts
       from live_poll p where p.event_id = ? order by p.created_at, p.id`,
    [eventId],
  );
  const results = polls.map((p) => {
    const options = p.options.map((text, i) => ({ text: String(text), votes: p.counts?.[String(i)] ?? 0 }));
    return { pollId: p.id, question: p.question, options, votes: options.reduce((s, o) => s + o.votes, 0) };
  });
  return {
    questions: counts!.questions,
    questionVotes: counts!.votes,
    polls: results,
    pollVotes: results.reduce((s, p) => s + p.votes, 0),
    reactions: counts!.reactions,
    chatLines: counts!.chat_lines,
  };
}
