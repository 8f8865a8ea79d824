import { describe, expect, it } from 'vitest';
import type { Backlog, Envelope, Fanout } from '../src/live/fanout';
import { LiveResumes, resumeRequest } from '../src/live/resume';

/**
 * A reconnect resumes with `?resume=<secret>&after=<seq>`. It gets what it missed when its secret is
 * this participant's in this event, `after` is no older than the position its session joined at and
 * the history still holds everything after it. Resumes of an event that arrive while a history read
 * runs share one read from the lowest position; `resumed` notices name up to 100 participants each.
 */
const numbered = (seq: number) => ({ eventId: 'e', target: { to: 'all' }, seq }) as unknown as Envelope;

function harness(floor: number | null = 0) {
  const reads: { eventId: string; after: number; resolve: (b: Backlog | null) => void }[] = [];
  const published: Envelope[] = [];
  const publishing: (() => void)[] = [];
  const fanout = {
    since: (eventId: string, after: number) =>
      new Promise<Backlog | null>((resolve) => reads.push({ eventId, after, resolve })),
    publish: (envelope: Envelope) =>
      new Promise<void>((resolve) => {
        published.push(envelope);
        publishing.push(resolve);
      }),
  } as unknown as Fanout;
  const floors: string[] = [];
  const tokens = {
    resumeFloor: async (secret: string) => {
      floors.push(secret);
      return floor;
    },
  };
  const backlog = (...seqs: number[]): Backlog => ({
    lastSeq: Math.max(0, ...seqs),
    envelopes: seqs.map(numbered),
  });
  const seqs = async (pending: Promise<Backlog | null>) => (await pending)?.envelopes.map((e) => e.seq);
  return { fanout, tokens, reads, published, publishing, floors, backlog, seqs };
}

/** Lets the awaited token check and the batcher's hand-off run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the resume request of a reconnect’s URL', () => {
  it('is absent without a resume secret', () => {
    expect(resumeRequest(new URL('ws://h/live?after=3'))).toBeUndefined();
  });

  it('carries the secret and the last seq the socket had', () => {
    expect(resumeRequest(new URL('ws://h/live?resume=s1&after=42'))).toEqual({ secret: 's1', after: 42 });
  });

  it('marks a missing, negative or non-integer position as not resumable (-1)', () => {
    for (const query of ['resume=s1', 'resume=s1&after=-1', 'resume=s1&after=1.5', 'resume=s1&after=x'])
      expect(resumeRequest(new URL(`ws://h/live?${query}`))?.after).toBe(-1);
  });
});

describe('what a resuming socket missed', () => {
  it('is nothing for a position that cannot be resumed from, without asking the tokens or the history', async () => {
    const { fanout, tokens, reads, floors } = harness();
    expect(await new LiveResumes(fanout, tokens).backlog('e', 'p', { secret: 's', after: -1 })).toBeNull();
    expect(floors).toEqual([]);
    expect(reads).toEqual([]);
  });

  it('is nothing when the secret is not this participant’s in this event', async () => {
    const { fanout, tokens, reads } = harness(null);
    expect(await new LiveResumes(fanout, tokens).backlog('e', 'p', { secret: 's', after: 5 })).toBeNull();
    expect(reads).toEqual([]);
  });

  it('is nothing for a position older than the one its session joined at', async () => {
    const { fanout, tokens, reads } = harness(10);
    expect(await new LiveResumes(fanout, tokens).backlog('e', 'p', { secret: 's', after: 9 })).toBeNull();
    expect(reads).toEqual([]);
  });

  it('is read at once for a lone resume', async () => {
    const { fanout, tokens, reads, backlog, seqs } = harness();
    const pending = new LiveResumes(fanout, tokens).backlog('e', 'p', { secret: 's', after: 2 });
    await settle();
    expect(reads).toMatchObject([{ eventId: 'e', after: 2 }]);
    reads[0]!.resolve(backlog(3, 4));
    expect(await seqs(pending)).toEqual([3, 4]);
  });

  it('is shared by the resumes of an event that arrive while a read runs, each getting its own part', async () => {
    const { fanout, tokens, reads, backlog, seqs } = harness();
    const resumes = new LiveResumes(fanout, tokens);
    const lone = resumes.backlog('e', 'p1', { secret: 's', after: 0 });
    await settle();
    const later = resumes.backlog('e', 'p2', { secret: 's', after: 6 });
    const earlier = resumes.backlog('e', 'p3', { secret: 's', after: 4 });
    await settle();
    reads[0]!.resolve(backlog(1, 2, 3));
    await lone;
    await settle();
    expect(reads).toHaveLength(2);
    expect(reads[1]).toMatchObject({ eventId: 'e', after: 4 });
    reads[1]!.resolve(backlog(5, 6, 7));
    expect(await seqs(later)).toEqual([7]);
    expect(await seqs(earlier)).toEqual([5, 6, 7]);
  });

  it('is read on its own for a later position when the shared read’s oldest one is no longer kept', async () => {
    const { fanout, tokens, reads, backlog, seqs } = harness();
    const resumes = new LiveResumes(fanout, tokens);
    const lone = resumes.backlog('e', 'p1', { secret: 's', after: 0 });
    await settle();
    const trimmed = resumes.backlog('e', 'p2', { secret: 's', after: 1 });
    const kept = resumes.backlog('e', 'p3', { secret: 's', after: 8 });
    await settle();
    reads[0]!.resolve(null);
    await lone;
    await settle();
    reads[1]!.resolve(null);
    await settle();
    expect(reads[2]).toMatchObject({ eventId: 'e', after: 8 });
    reads[2]!.resolve(backlog(9));
    expect(await trimmed).toBeNull();
    expect(await seqs(kept)).toEqual([9]);
  });

  it('is nothing for a position beyond the stream’s last seq', async () => {
    const { fanout, tokens, reads, backlog, seqs } = harness();
    const resumes = new LiveResumes(fanout, tokens);
    const lone = resumes.backlog('e', 'p1', { secret: 's', after: 0 });
    await settle();
    const ahead = resumes.backlog('e', 'p2', { secret: 's', after: 30 });
    const behind = resumes.backlog('e', 'p3', { secret: 's', after: 1 });
    await settle();
    reads[0]!.resolve(backlog());
    await lone;
    await settle();
    reads[1]!.resolve(backlog(2, 3));
    expect(await ahead).toBeNull();
    expect(await seqs(behind)).toEqual([2, 3]);
  });

  it('replaces what was deleted for everyone since it was published', async () => {
    const { fanout, tokens, reads, backlog, seqs } = harness();
    const scrub = async (_: string, envelopes: Envelope[]) => envelopes.filter((e) => e.seq !== 3);
    const pending = new LiveResumes(fanout, tokens, scrub).backlog('e', 'p', { secret: 's', after: 1 });
    await settle();
    reads[0]!.resolve(backlog(2, 3, 4));
    expect(await seqs(pending)).toEqual([2, 4]);
  });
});

describe('the resumed notices', () => {
  it('go at once for a lone resume', async () => {
    const { fanout, tokens, published } = harness();
    void new LiveResumes(fanout, tokens).resumed('e', 'p1');
    expect(published).toMatchObject([{ eventId: 'e', action: 'resumed', participants: ['p1'] }]);
  });

  it('name up to 100 participants each, one notice per event, while earlier notices are being published', async () => {
    const { fanout, tokens, published, publishing } = harness();
    const resumes = new LiveResumes(fanout, tokens);
    void resumes.resumed('e', 'first');
    void resumes.resumed('e', 'second');
    for (let i = 0; i < 101; i++) void resumes.resumed('e', `p${i}`);
    void resumes.resumed('f', 'q');
    expect(published).toHaveLength(2);
    publishing[0]!();
    await settle();
    expect(published[2]).toMatchObject({ eventId: 'e', action: 'resumed' });
    expect((published[2] as { participants: string[] }).participants).toHaveLength(100);
    publishing[1]!();
    await settle();
    // One event's notice after the other's: the batch [p100, q] publishes e, then f.
    publishing[3]!();
    await settle();
    expect(published.slice(3)).toMatchObject([
      { eventId: 'e', participants: ['p100'] },
      { eventId: 'f', participants: ['q'] },
    ]);
  });
});
