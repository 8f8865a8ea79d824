import type pg from 'pg';
import { Batcher } from '../lib/batcher';

/** At most this many votes are written by one statement. */
const maxGroup = 500;

export interface PollVote {
  eventId: string;
  pollId: string;
  voterKey: string;
  option: number;
}

/** `badOption`: the option is not one of the poll's (it has `options` of them). */
export type PollVoteOutcome =
  | 'counted'
  | 'not_found'
  | 'closed'
  | 'already_voted'
  | { badOption: { options: number } };

/**
 * Votes of a group were stored for these polls of the event (their counts are to be sent). It never
 * fails the group: the votes are stored whatever happens to their counts' frame.
 */
export type PollVotesCounted = (eventId: string, pollIds: string[]) => Promise<void>;

/**
 * Poll votes from the live gateway, written in groups: the votes that arrive while a group is being
 * written go together in the next one, so a poll storm (every viewer votes within seconds) costs a
 * few statements a second, not one per vote; a lone vote goes at once.
 *
 * One statement per group checks each vote against its poll (in this event, open, a valid option)
 * and inserts the valid ones; the primary key (poll_id, voter_key) keeps one vote per participant and
 * poll across groups and processes. A vote's outcome is known only after its statement committed,
 * so a voter is acknowledged only for a stored vote. Then `counted` hears which polls changed, once
 * per group, so counts are read and sent per group, never per vote.
 */
export class PollVotes {
  readonly #votes = new Batcher<PollVote, PollVoteOutcome>((group) => this.#voteGroup(group), maxGroup, 1);

  constructor(
    private readonly pool: Pick<pg.Pool, 'query'>,
    private readonly counted: PollVotesCounted,
  ) {}

  vote(vote: PollVote): Promise<PollVoteOutcome> {
    return this.#votes.submit(vote);
  }

  async #voteGroup(group: PollVote[]): Promise<PollVoteOutcome[]> {
    // The check and the insert read one snapshot: a vote is refused as closed exactly when the poll
    // row it was checked against says so. An option past any poll's (the contract takes any integer,
    // 1e308 included) goes as the largest safe integer in a bigint: refused on its own, never failing
    // its group's statement.
    const { rows } = await this.pool.query<{
      inserted: boolean;
      poll_id: string;
      voter_key: string | null;
      event_id: string | null;
      options: number | null;
      closed: boolean | null;
    }>(
      `with x as (
         select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::bigint[]) as x(event_id, poll_id, voter_key, option)
       ), stored as (
         insert into live_poll_vote (poll_id, voter_key, option)
         select x.poll_id, x.voter_key, x.option
           from x join live_poll p on p.id = x.poll_id and p.event_id = x.event_id
          where not p.closed and x.option < jsonb_array_length(p.options)
         on conflict do nothing
         returning poll_id, voter_key
       )
       select true as inserted, poll_id, voter_key, null::uuid as event_id, null::int as options, null::boolean as closed
         from stored
       union all
       select false, p.id, null, p.event_id, jsonb_array_length(p.options), p.closed
         from live_poll p where p.id in (select poll_id from x)`,
      [
        group.map((v) => v.eventId),
        group.map((v) => v.pollId),
        group.map((v) => v.voterKey),
        group.map((v) => Math.min(v.option, Number.MAX_SAFE_INTEGER)),
      ],
    );
    const polls = new Map(rows.filter((r) => !r.inserted).map((r) => [r.poll_id, r]));
    // Each stored row counts for one vote of the group (a voter sending the same vote twice in one
    // group has one row stored: the first is counted, the second already voted).
    const unclaimed = new Set(rows.filter((r) => r.inserted).map((r) => `${r.poll_id}|${r.voter_key}`));
    const changed = new Map<string, Set<string>>();
    const outcomes = group.map((v): PollVoteOutcome => {
      const poll = polls.get(v.pollId);
      if (!poll || poll.event_id !== v.eventId) return 'not_found';
      if (poll.closed) return 'closed';
      if (v.option >= poll.options!) return { badOption: { options: poll.options! } };
      if (!unclaimed.delete(`${v.pollId}|${v.voterKey}`)) return 'already_voted';
      changed.set(v.eventId, (changed.get(v.eventId) ?? new Set()).add(v.pollId));
      return 'counted';
    });
    await Promise.all([...changed].map(([eventId, ids]) => this.counted(eventId, [...ids])));
    return outcomes;
  }
}
