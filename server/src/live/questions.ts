import { randomUUID } from 'node:crypto';
import { LiveError } from './connection';
import { type Handler, type Handling, requireFeature, toAll } from './deps';
import { checkQuestion } from './control/chat-rules';

/**
 * Q&A over the socket, stored in the tables GET /v1/events/{id}/questions reads. Asking and voting
 * need `qa` in the governing phase; anonymous holders need allowAnonymousQuestions /
 * allowAnonymousVoting. Answer and dismiss are for hosts. A large audience gets new questions and
 * tallies in batch frames (crowd/crowd.ts); an answer or dismiss goes at once.
 */
export const createQuestion: Handler<'question.create'> = async (h, { text }) => {
  requireFeature(h.event, 'qa');
  checkQuestion(h);
  const { claims } = h.conn;
  if (claims.anonymous && !h.event.allowAnonymousQuestions)
    throw new LiveError('forbidden', 'This event does not take questions from anonymous viewers');
  const id = randomUUID();
  const outcome = await h.deps.questions.create({
    id,
    workspaceId: h.event.workspaceId,
    eventId: h.event.id,
    text,
    authorUserId: claims.userId,
    authorName: claims.name,
    anonymous: claims.anonymous,
  });
  if (outcome === 'author_gone')
    throw new LiveError('forbidden', 'The user this gateway token was issued for no longer exists');
  const created = {
    type: 'question.created',
    question: { id, text, authorName: claims.anonymous ? null : claims.name, votes: 0 },
  } as const;
  if (h.deps.crowd.large(h.event.id)) h.deps.crowd.questionCreated(h.event.id, created);
  else await toAll(h, created);
};

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
  // The group that writes the vote also sends the question's new tally to everyone.
  const outcome = await h.deps.questions.vote({
    eventId: h.event.id,
    questionId,
    voterKey: h.conn.participantId,
  });
  if (outcome === 'not_found') throw new LiveError('not_found', 'No such question in this event');
  if (outcome === 'already_voted')
    throw new LiveError('already_voted', 'You already voted for this question');
  if (typeof outcome === 'object') throw new LiveError('invalid_state', `The question is ${outcome.closed}`);
  // A large audience gets the tally in the next batch frame: the voter hears at once that it counted.
  if (h.deps.crowd.large(h.event.id)) h.conn.send({ type: 'question.voted', questionId });
};

const moderate =
  <T extends 'question.answer' | 'question.dismiss'>(status: 'answered' | 'dismissed'): Handler<T> =>
  async (h, message) => {
    const { questionId } = message as { questionId: string };
    await requireQuestion(h, questionId);
    await h.deps.ctx.pool.query('update question set status = $2 where id = $1', [questionId, status]);
    await h.deps.crowd.settle(h.event.id, { questions: [questionId] }, () =>
      h.deps.questions.publishTallies([questionId]),
    );
  };

export const answerQuestion = moderate<'question.answer'>('answered');
export const dismissQuestion = moderate<'question.dismiss'>('dismissed');
