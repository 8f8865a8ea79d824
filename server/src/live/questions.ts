import { randomUUID } from 'node:crypto';
import { isForeignKeyViolation, sql } from '../db/sql';
import { LiveError } from './connection';
import { type Handler, type Handling, requireFeature, toAll } from './deps';

/**
 * Q&A over the socket, stored in the tables GET /v1/events/{id}/questions reads. Asking and voting
 * need `qa` in the governing phase; anonymous holders need allowAnonymousQuestions /
 * allowAnonymousVoting. Answer and dismiss are for hosts.
 */
export const createQuestion: Handler<'question.create'> = async (h, { text }) => {
  requireFeature(h.event, 'qa');
  const { claims } = h.conn;
  if (claims.anonymous && !h.event.allowAnonymousQuestions)
    throw new LiveError('forbidden', 'This event does not take questions from anonymous viewers');
  const id = randomUUID();
  try {
    await h.deps.ctx.orm.em.fork().transactional(async (tx) => {
      await sql(
        tx,
        `insert into question (id, event_id, text, author_user_id, author_name, anonymous) values (?, ?, ?, ?, ?, ?)`,
        [id, h.event.id, text, claims.userId, claims.name, claims.anonymous],
      );
      await h.deps.ctx.bus.record(tx, {
        type: 'question.created',
        workspaceId: h.event.workspaceId,
        eventId: h.event.id,
        data: { questionId: id, text },
      });
    });
  } catch (err) {
    // The token outlives the user it names (deleted since it was issued): a question needs an author.
    if (isForeignKeyViolation(err, 'question_author_user_id_fkey'))
      throw new LiveError('forbidden', 'The user this gateway token was issued for no longer exists');
    throw err;
  }
  await toAll(h, {
    type: 'question.created',
    question: { id, text, authorName: claims.anonymous ? null : claims.name, votes: 0 },
  });
};

async function broadcastTally(h: Handling, questionId: string): Promise<void> {
  const { rows } = await h.deps.ctx.pool.query<{ votes: number; status: string }>(
    `select q.status, (select count(*) from question_vote v where v.question_id = q.id)::int as votes
       from question q where q.id = $1`,
    [questionId],
  );
  if (rows[0])
    await toAll(h, { type: 'question.updated', questionId, votes: rows[0].votes, status: rows[0].status });
}

async function requireQuestion(h: Handling, questionId: string): Promise<{ status: string }> {
  const { rows } = await h.deps.ctx.pool.query<{ status: string }>(
    'select status from question where id = $1 and event_id = $2',
    [questionId, h.event.id],
  );
  if (!rows[0]) throw new LiveError('not_found', 'No such question in this event');
  return rows[0];
}

export const voteQuestion: Handler<'question.vote'> = async (h, { questionId }) => {
  requireFeature(h.event, 'qa');
  if (h.conn.claims.anonymous && !h.event.allowAnonymousVoting)
    throw new LiveError('forbidden', 'This event does not take votes from anonymous viewers');
  const question = await requireQuestion(h, questionId);
  if (question.status !== 'open') throw new LiveError('invalid_state', `The question is ${question.status}`);
  const { rowCount } = await h.deps.ctx.pool.query(
    'insert into question_vote (question_id, voter_key) values ($1, $2) on conflict do nothing',
    [questionId, h.conn.participantId],
  );
  if (!rowCount) throw new LiveError('already_voted', 'You already voted for this question');
  await broadcastTally(h, questionId);
};

const moderate =
  <T extends 'question.answer' | 'question.dismiss'>(status: 'answered' | 'dismissed'): Handler<T> =>
  async (h, message) => {
    const { questionId } = message as { questionId: string };
    await requireQuestion(h, questionId);
    await h.deps.ctx.pool.query('update question set status = $2 where id = $1', [questionId, status]);
    await broadcastTally(h, questionId);
  };

export const answerQuestion = moderate<'question.answer'>('answered');
export const dismissQuestion = moderate<'question.dismiss'>('dismissed');
