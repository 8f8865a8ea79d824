import type { LiveServerMessage } from '@gathercast/contract';
import { sql } from '../db/sql';
import { Batcher } from '../lib/batcher';
import type { AppContext } from '../lib/context';

type QuestionUpdated = Extract<LiveServerMessage, { type: 'question.updated' }>;

/** At most this many questions or votes are written by one statement. */
const maxGroup = 200;

export interface NewQuestion {
  id: string;
  workspaceId: string;
  eventId: string;
  text: string;
  authorUserId: string | null;
  authorName: string | null;
  anonymous: boolean;
}

/** `author_gone`: the token names a user deleted since it was issued (a question needs an author). */
export type CreateOutcome = 'stored' | 'author_gone';

export interface NewVote {
  eventId: string;
  questionId: string;
  voterKey: string;
}

export type VoteOutcome = 'counted' | 'not_found' | 'already_voted' | { closed: string };

/** Sends an event's message to all its sockets (the gateway's fan-out). */
export type PublishToAll = (eventId: string, message: LiveServerMessage) => Promise<void>;
/** Votes of a group were counted for these questions of the event (the tallies are to be sent). */
export type VotesCounted = (eventId: string, questionIds: string[]) => Promise<void>;

/**
 * Questions and votes from the live gateway, written in groups. When a crowd asks or votes at once
 * (a webinar's Q&A opening), the asks that arrive while a group is being written go together in the
 * next one: one transaction with one insert for the questions and one for their question.created
 * outbox rows, so a thousand askers cost a few commits, not a thousand. A lone ask goes at once.
 *
 * Votes likewise: one read of the questions' states, one insert, one tally read per group, and one
 * `question.updated` per question of the group carrying its stored count after the group (so tallies
 * are never sent per vote, and the last one a viewer sees is the stored count).
 */
export class QuestionWrites {
  readonly #creates = new Batcher<NewQuestion, CreateOutcome>(
    (group) => this.#createGroup(group),
    maxGroup,
    1,
  );
  readonly #votes = new Batcher<NewVote, VoteOutcome>((group) => this.#voteGroup(group), maxGroup, 1);

  constructor(
    private readonly ctx: AppContext,
    private readonly publish: PublishToAll,
    /** Where counted votes go: by default their tallies to everyone at once (a large audience: batched). */
    private readonly counted: VotesCounted = (_eventId, ids) => this.publishTallies(ids),
  ) {}

  create(question: NewQuestion): Promise<CreateOutcome> {
    return this.#creates.submit(question);
  }

  vote(vote: NewVote): Promise<VoteOutcome> {
    return this.#votes.submit(vote);
  }

  #createGroup(group: NewQuestion[]): Promise<CreateOutcome[]> {
    return this.ctx.orm.em.fork().transactional(async (tx) => {
      // A question whose author no longer exists is left out here, not failed by the foreign key,
      // so one stale token cannot fail the rest of its group.
      const stored = await sql<{ id: string }>(
        tx,
        `insert into question (id, event_id, text, author_user_id, author_name, anonymous)
         select x.id, x.event_id, x.text, x.author_user_id, x.author_name, x.anonymous
           from jsonb_to_recordset(?::jsonb)
             as x(id uuid, event_id uuid, text text, author_user_id uuid, author_name text, anonymous boolean)
          where x.author_user_id is null or exists (select 1 from app_user u where u.id = x.author_user_id)
         returning id`,
        [
          JSON.stringify(
            group.map((q) => ({
              id: q.id,
              event_id: q.eventId,
              text: q.text,
              author_user_id: q.authorUserId,
              author_name: q.authorName,
              anonymous: q.anonymous,
            })),
          ),
        ],
      );
      const ids = new Set(stored.map((r) => r.id));
      const kept = group.filter((q) => ids.has(q.id));
      await this.ctx.bus.recordMany(
        tx,
        kept.map((q) => ({
          type: 'question.created',
          workspaceId: q.workspaceId,
          eventId: q.eventId,
          data: { questionId: q.id, text: q.text },
        })),
      );
      return group.map((q) => (ids.has(q.id) ? 'stored' : 'author_gone'));
    });
  }

  async #voteGroup(group: NewVote[]): Promise<VoteOutcome[]> {
    const { pool } = this.ctx;
    const questionIds = [...new Set(group.map((v) => v.questionId))];
    const { rows: found } = await pool.query<{ id: string; event_id: string; status: string }>(
      'select id, event_id, status from question where id = any($1::uuid[])',
      [questionIds],
    );
    const byId = new Map(found.map((q) => [q.id, q]));
    const outcomes: (VoteOutcome | undefined)[] = group.map((v) => {
      const q = byId.get(v.questionId);
      if (!q || q.event_id !== v.eventId) return 'not_found';
      return q.status === 'open' ? undefined : { closed: q.status };
    });
    const open = group.filter((_, i) => outcomes[i] === undefined);
    const { rows: inserted } = open.length
      ? await pool.query<{ question_id: string; voter_key: string }>(
          `insert into question_vote (question_id, voter_key)
           select * from unnest($1::uuid[], $2::text[])
           on conflict do nothing
           returning question_id, voter_key`,
          [open.map((v) => v.questionId), open.map((v) => v.voterKey)],
        )
      : { rows: [] };
    // Each inserted row counts for one vote of the group (a voter sending the same vote twice in one
    // group has one row inserted: the first is counted, the second already voted).
    const unclaimed = new Set(inserted.map((r) => `${r.question_id}|${r.voter_key}`));
    for (const [i, v] of group.entries()) {
      if (outcomes[i] !== undefined) continue;
      const key = `${v.questionId}|${v.voterKey}`;
      outcomes[i] = unclaimed.delete(key) ? 'counted' : 'already_voted';
    }
    const countedByEvent = new Map<string, Set<string>>();
    for (const r of inserted) {
      const eventId = byId.get(r.question_id)!.event_id;
      countedByEvent.set(eventId, (countedByEvent.get(eventId) ?? new Set()).add(r.question_id));
    }
    await Promise.all([...countedByEvent].map(([eventId, ids]) => this.counted(eventId, [...ids])));
    return outcomes as VoteOutcome[];
  }

  /** One `question.updated` per question with its stored count and status, to everyone. */
  async publishTallies(questionIds: string[]): Promise<void> {
    const tallies = await this.tallies(questionIds);
    await Promise.all(tallies.map(({ eventId, message }) => this.publish(eventId, message)));
  }

  /** The questions' `question.updated` messages with their stored counts and statuses. */
  async tallies(questionIds: string[]): Promise<{ eventId: string; message: QuestionUpdated }[]> {
    if (!questionIds.length) return [];
    const { rows } = await this.ctx.pool.query<{
      id: string;
      event_id: string;
      status: string;
      votes: number;
    }>(
      `select q.id, q.event_id, q.status,
              (select count(*) from question_vote v where v.question_id = q.id)::int as votes
         from question q where q.id = any($1::uuid[])`,
      [questionIds],
    );
    return rows.map((q) => ({
      eventId: q.event_id,
      message: { type: 'question.updated', questionId: q.id, votes: q.votes, status: q.status },
    }));
  }
}
