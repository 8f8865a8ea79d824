import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type PollVoteOutcome, PollVotes } from '../src/live/poll-votes';
import { eventIn } from './support/events';
import { createWorkspace } from './support/fixtures';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * Poll votes are written in groups, yet exactly: one vote per participant and poll however the votes
 * of one participant arrive (twice in one group, at once on two processes), and a vote is reported
 * counted only once it is stored. Each PollVotes here has its own pool, as two processes would.
 */
let t: TestServer;
const pools: pg.Pool[] = [];
useTestServer({ LOG_LEVEL: 'warn' }, (started) => {
  t = started;
});
// Registered after the server's hook, so it runs before the server closes.
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

function votesOfAProcess(): PollVotes {
  const pool = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
  pools.push(pool);
  return new PollVotes(pool, async () => {});
}

async function openPoll(): Promise<{ eventId: string; pollId: string }> {
  const gc = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
  const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['polls'] }]);
  const pollId = randomUUID();
  await t.server.ctx.pool.query(
    'insert into live_poll (id, event_id, question, options) values ($1, $2, $3, $4)',
    [pollId, event.id, 'Which?', JSON.stringify(['a', 'b'])],
  );
  return { eventId: event.id, pollId };
}

describe('poll votes written in groups', () => {
  it('count one vote per participant across groups and processes, each vote stored by the time it is reported counted', async () => {
    const { eventId, pollId } = await openPoll();
    const [a, b] = [votesOfAProcess(), votesOfAProcess()];
    const voters = Array.from({ length: 20 }, (_, i) => `anon:${i}`);
    const storedWhenCounted: boolean[] = [];
    const vote = (votes: PollVotes, voterKey: string, option: number) =>
      votes.vote({ eventId, pollId, voterKey, option }).then(async (outcome: PollVoteOutcome) => {
        if (outcome === 'counted') {
          const { rowCount } = await t.server.ctx.pool.query(
            'select 1 from live_poll_vote where poll_id = $1 and voter_key = $2',
            [pollId, voterKey],
          );
          storedWhenCounted.push(rowCount === 1);
        }
        return outcome;
      });
    // Every voter votes twice on one process (the same group or the next) and once on the other.
    const outcomes = await Promise.all(
      voters.map((v) => Promise.all([vote(a, v, 0), vote(a, v, 1), vote(b, v, 1)])),
    );
    for (const perVoter of outcomes) {
      expect(perVoter.filter((o) => o === 'counted')).toHaveLength(1);
      expect(perVoter.filter((o) => o === 'already_voted')).toHaveLength(2);
    }
    expect(storedWhenCounted).toEqual(voters.map(() => true));
    const { rows } = await t.server.ctx.pool.query(
      'select count(*)::int as n from live_poll_vote where poll_id = $1',
      [pollId],
    );
    expect(rows[0].n).toBe(voters.length);
  });

  it('refuses, each on its own, a vote for a poll of another event, a closed poll, and an option the poll does not have', async () => {
    const { eventId, pollId } = await openPoll();
    const other = await openPoll();
    const votes = votesOfAProcess();
    const outcome = (e: string, option: number, voterKey = randomUUID()) =>
      votes.vote({ eventId: e, pollId, voterKey, option });
    expect(await outcome(other.eventId, 0)).toBe('not_found');
    expect(await outcome(eventId, 2)).toEqual({ badOption: { options: 2 } });
    // An option past any integer column, in one group with a valid vote (both arrive while a first
    // vote is being written): refused alone.
    const [, huge, huger, valid] = await Promise.all([
      outcome(eventId, 0),
      outcome(eventId, 2 ** 40),
      outcome(eventId, 1e308),
      outcome(eventId, 1),
    ]);
    expect([huge, huger, valid]).toEqual([
      { badOption: { options: 2 } },
      { badOption: { options: 2 } },
      'counted',
    ]);
    await t.server.ctx.pool.query('update live_poll set closed = true where id = $1', [pollId]);
    expect(await outcome(eventId, 0)).toBe('closed');
  });
});
