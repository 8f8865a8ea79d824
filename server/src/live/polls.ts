import { randomUUID } from 'node:crypto';
import type { LiveServerMessage } from '@gathercast/contract';
import type pg from 'pg';
import { LiveError } from './connection';
import { type Handler, type Handling, requireFeature, toAll } from './deps';

/**
 * Polls (feature `polls`): hosts create and close them; everyone votes once per poll. Kept in
 * live_poll / live_poll_vote so every process counts the same votes; each change broadcasts the
 * whole poll with its counts.
 */
interface PollRow {
  id: string;
  question: string;
  options: string[];
  closed: boolean;
}

async function pollMessage(db: Pick<pg.Pool, 'query'>, poll: PollRow): Promise<LiveServerMessage> {
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
  const poll = await pollOf(h, pollId);
  if (poll.closed) throw new LiveError('invalid_state', 'The poll is closed');
  if (option >= poll.options.length)
    throw new LiveError('bad_request', `option must be below ${poll.options.length}`);
  const { rowCount } = await h.deps.ctx.pool.query(
    'insert into live_poll_vote (poll_id, voter_key, option) values ($1, $2, $3) on conflict do nothing',
    [pollId, h.conn.participantId, option],
  );
  if (!rowCount) throw new LiveError('already_voted', 'You already voted in this poll');
  await toAll(h, await pollMessage(h.deps.ctx.pool, poll));
};

export const closePoll: Handler<'poll.close'> = async (h, { pollId }) => {
  const poll = await pollOf(h, pollId);
  if (!poll.closed) await h.deps.ctx.pool.query('update live_poll set closed = true where id = $1', [pollId]);
  await toAll(h, await pollMessage(h.deps.ctx.pool, { ...poll, closed: true }));
};

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
