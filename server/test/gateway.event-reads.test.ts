import { describe, expect, it } from 'vitest';
import type { Queryable } from '../src/db/pool';
import { type TokenEventRow, GatewayEventReads } from '../src/gateway/event-reads';

/**
 * Gateway-token requests share their event reads: those that arrive while a read is under way go
 * together in the next one, and none is answered from a read that started before it arrived.
 */

const row = (id: string, status: TokenEventRow['status']): TokenEventRow => ({
  id,
  workspace_id: 'w',
  status,
  visibility: 'public',
  modality: 'broadcast',
});

/** A database whose reads end when the test says so, answering from `state` as it is when the read starts. */
function slowDatabase(state: Map<string, TokenEventRow>) {
  const reads: { ids: string[]; finish: () => void }[] = [];
  const db = {
    query: (_text: string, params: unknown[]) => {
      const ids = params[0] as string[];
      const rows = ids.flatMap((id) => (state.has(id) ? [{ ...state.get(id)! }] : []));
      return new Promise((resolve) => reads.push({ ids, finish: () => resolve({ rows }) }));
    },
  } as unknown as Queryable;
  return { db, reads };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('gateway event reads', () => {
  it('reads a lone request at once', async () => {
    const { db, reads } = slowDatabase(new Map([['a', row('a', 'live')]]));
    const answer = new GatewayEventReads(db).read('a');
    await turn();
    expect(reads).toHaveLength(1);
    reads[0]!.finish();
    expect(await answer).toMatchObject({ id: 'a', status: 'live' });
  });

  it('answers the requests that arrived during a read from one shared next read', async () => {
    const { db, reads } = slowDatabase(
      new Map([
        ['a', row('a', 'live')],
        ['b', row('b', 'scheduled')],
      ]),
    );
    const events = new GatewayEventReads(db);
    const first = events.read('a');
    await turn();
    const crowd = [
      ...Array.from({ length: 50 }, () => events.read('a')),
      events.read('b'),
      events.read('missing'),
    ];
    await turn();
    expect(reads).toHaveLength(1);
    reads[0]!.finish();
    await first;
    await turn();
    expect(reads).toHaveLength(2);
    expect(new Set(reads[1]!.ids)).toEqual(new Set(['a', 'b', 'missing']));
    reads[1]!.finish();
    const answers = await Promise.all(crowd);
    expect(answers.slice(0, 50).every((r) => r?.status === 'live')).toBe(true);
    expect(answers[50]).toMatchObject({ id: 'b', status: 'scheduled' });
    expect(answers[51]).toBeUndefined();
  });

  it('never answers a request from a read that started before it arrived', async () => {
    const state = new Map([['a', row('a', 'live')]]);
    const { db, reads } = slowDatabase(state);
    const events = new GatewayEventReads(db);
    const before = events.read('a');
    await turn();
    // The event ends while the first read is under way; a request made after that sees it ended.
    state.set('a', row('a', 'ended'));
    const after = events.read('a');
    reads[0]!.finish();
    expect(await before).toMatchObject({ status: 'live' });
    await turn();
    reads[1]!.finish();
    expect(await after).toMatchObject({ status: 'ended' });
  });
});
