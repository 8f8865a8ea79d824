import type pg from 'pg';
import { Batcher } from '../../lib/batcher';

export interface CountedReaction {
  workspaceId: string;
  eventId: string;
  emoji: string;
}

/**
 * Each event's reaction totals per emoji (live_reaction_total), counted before the reaction is sent
 * on. Reactions that arrive while a write is running are summed per event and emoji and go in the
 * next one: applause from 10,000 viewers is a few upserts a second, and every reaction counts once.
 */
export class ReactionTotals {
  readonly #writes = new Batcher<CountedReaction, undefined>((group) => this.#write(group), 2000, 2);

  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  add(reaction: CountedReaction): Promise<undefined> {
    return this.#writes.submit(reaction);
  }

  async #write(group: CountedReaction[]): Promise<undefined[]> {
    const sums = new Map<string, { workspace_id: string; event_id: string; emoji: string; count: number }>();
    for (const r of group) {
      const key = `${r.eventId}|${r.emoji}`;
      const sum = sums.get(key) ?? {
        workspace_id: r.workspaceId,
        event_id: r.eventId,
        emoji: r.emoji,
        count: 0,
      };
      sum.count++;
      sums.set(key, sum);
    }
    // One row per (event, emoji) in the statement: an upsert may not touch a row twice.
    await this.pool.query(
      `insert into live_reaction_total (workspace_id, event_id, emoji, count)
       select x.workspace_id, x.event_id, x.emoji, x.count
         from jsonb_to_recordset($1::jsonb) as x(workspace_id uuid, event_id uuid, emoji text, count bigint)
       on conflict (event_id, emoji)
       do update set count = live_reaction_total.count + excluded.count, updated_at = now()`,
      [JSON.stringify([...sums.values()])],
    );
    return group.map(() => undefined);
  }
}
