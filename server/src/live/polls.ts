import { randomUUID } from 'node:crypto';
import type { LiveServerMessage } from '@gathercast/contract';
import type pg from 'pg';
import { LiveError } from './connection';
import { type Handler, type Handling, requireFeature, toAll } from './deps';

/**
 * Polls (feature `polls`): hosts create and close them; everyone votes once per poll. Kept in
 * live_poll / live_poll_vote so every process counts the same votes; votes are stored in groups
 * (poll-votes.ts), and each group or change broadcasts the whole poll with its counts. A large audience gets the counts in batch frames (crowd/crowd.ts), the
 * voter a `poll.voted` at once; a close goes at once with the final counts.
 */
interface PollRow {
  id: string;
  question: string;
  options: string[];
  closed: boolean;
}

type PollMessage = Extract<LiveServerMessage, { type: 'poll' }>;

async function pollMessage(db: Pick<pg.Pool, 'query'>, poll: PollRow): Promise<PollMessage> {
  const { rows } = await db.query<{ option: number; n: number }>(
    'select option, count(*)::int as n from live_poll_vote where poll_id = $1 group by option',
    [poll.id],
  );
  const counts = poll.options.map((_, i) => rows.find((r) => r.option === i)?.n ?? 0);
  return {
    type: 'poll',
    pollId: poll.id,
    question: poll.question,
    options: poll.options,
    counts,
    closed: poll.closed,
  };
}

async function pollOf(h: Handling, pollId: string): Promise<PollRow> {
  const { rows } = await h.deps.ctx.pool.query<PollRow>(
    'select id, question, options, closed from live_poll where id = $1 and event_id = $2',
    [pollId, h.event.id],
  );
  if (!rows[0]) throw new LiveError('not_found', 'No such poll in this event');
  return rows[0];
}

export const createPoll: Handler<'poll.create'> = async (h, { question, options }) => {
  requireFeature(h.event, 'polls');
  const poll: PollRow = { id: randomUUID(), question, options, closed: false };
  await h.deps.ctx.pool.query(
    'insert into live_poll (id, event_id, question, options) values ($1, $2, $3, $4)',
    [poll.id, h.event.id, question, JSON.stringify(options)],
  );
  await toAll(h, await pollMessage(h.deps.ctx.pool, poll));
};

export const votePoll: Handler<'poll.vote'> = async (h, { pollId, option }) => {
  requireFeature(h.event, 'polls');
  // The group that stores the vote also sends the poll's new counts (poll-votes.ts).
  const outcome = await h.deps.pollVotes.vote({
    eventId: h.event.id,
    pollId,
    voterKey: h.conn.participantId,
    option,
  });
  if (outcome === 'not_found') throw new LiveError('not_found', 'No such poll in this event');
  if (outcome === 'closed') throw new LiveError('invalid_state', 'The poll is closed');
  if (outcome === 'already_voted') throw new LiveError('already_voted', 'You already voted in this poll');
  if (typeof outcome === 'object')
    throw new LiveError('bad_request', `option must be below ${outcome.badOption.options}`);
  // A large audience gets the counts in the next batch frame: the voter hears at once that it counted.
  if (h.deps.crowd.large(h.event.id)) h.conn.send({ type: 'poll.voted', pollId, option });
};

export const closePoll: Handler<'poll.close'> = async (h, { pollId }) => {
  const poll = await pollOf(h, pollId);
  if (!poll.closed) await h.deps.ctx.pool.query('update live_poll set closed = true where id = $1', [pollId]);
  await h.deps.crowd.settle(h.event.id, { polls: [pollId] }, async () =>
    toAll(h, await pollMessage(h.deps.ctx.pool, { ...poll, closed: true })),
  );
};

/** These polls of the event with their stored counts (a large audience's batch frame). */
export async function pollMessages(
  db: Pick<pg.Pool, 'query'>,
  eventId: string,
  pollIds: string[],
): Promise<PollMessage[]> {
  const { rows } = await db.query<PollRow>(
    'select id, question, options, closed from live_poll where event_id = $1 and id = any($2::uuid[]) order by created_at',
    [eventId, pollIds],
  );
  return Promise.all(rows.map((p) => pollMessage(db, p)));
}

/** Open polls with their counts, for a socket that just connected. */
export async function pollSnapshot(
  db: Pick<pg.Pool, 'query'>,
  eventId: string,
): Promise<LiveServerMessage[]> {
  const { rows } = await db.query<PollRow>(
    'select id, question, options, closed from live_poll where event_id = $1 and not closed order by created_at',
    [eventId],
  );
  return Promise.all(rows.map((p) => pollMessage(db, p)));
}
