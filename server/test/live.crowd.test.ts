import type { LiveServerMessage } from '@gathercast/contract';
import {
  createClient,
  type GathercastClient,
  LiveConnection,
  type WebSocketConstructor,
} from '@gathercast/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../src/server';
import { createTestDatabase } from './support/database';
import { eventIn } from './support/events';
import { createWorkspace, withDb } from './support/fixtures';
import { eventually, fastLive, LiveClient, recorded, startReplica, tokenFor } from './support/live';
import { ManualClock } from './support/manual-clock';

/**
 * A large audience's activity as state: from `threshold` sockets on, votes, tallies, questions,
 * reactions and chat reach viewers folded into `batch` frames at most once per interval (the clock
 * here moves only when a test advances it), each frame with the exact stored counts; closes and
 * answers go at once; the sender of each action hears it at once; nothing is counted twice.
 */
const threshold = 5;
const intervalMs = 1000;
const chatCap = 2;
const clock = new ManualClock();

let server: RunningServer;
let databaseUrl: string;
let gc: GathercastClient;
beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  server = await startReplica(
    databaseUrl,
    {},
    { ...fastLive, crowd: { threshold, intervalMs, chatCap, clock } },
  );
  gc = createClient({
    baseUrl: server.url,
    apiKey: (await createWorkspace(databaseUrl)).apiKey,
    maxRetries: 0,
  });
});
afterAll(() => server?.close());

/** A live broadcast with a host and enough viewers to be a large audience. */
async function crowd(featureSet: ('qa' | 'chat' | 'polls' | 'reactions')[]) {
  const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet }], {
    allowAnonymousQuestions: true,
    allowAnonymousVoting: true,
  });
  const host = await LiveClient.join(server, await tokenFor(server, event.id, { role: 'host' }));
  const viewers = await Promise.all(
    Array.from({ length: threshold - 1 }, async () =>
      LiveClient.join(server, await tokenFor(server, event.id, { role: 'viewer', anonymous: true })),
    ),
  );
  return { event, host, viewers, everyone: [host, ...viewers] };
}

const batched = (c: LiveClient) => c.all('batch').flatMap((b) => b.messages);
const closeAll = (clients: LiveClient[]) => Promise.all(clients.map((c) => c.close()));

describe('a large audience', () => {
  it('gets poll counts in at most one frame per interval, exact after the last vote, and the close at once', async () => {
    const { host, viewers, everyone } = await crowd(['polls']);
    host.send({ type: 'poll.create', question: 'Where from?', options: ['here', 'there'] });
    const { pollId } = await host.next('poll');
    for (const [i, v] of viewers.entries()) v.send({ type: 'poll.vote', pollId, option: i % 2 });
    for (const v of viewers) expect(await v.next('poll.voted')).toMatchObject({ pollId });
    clock.advance(intervalMs);
    const total = (m: Extract<LiveServerMessage, { type: 'batch' }>) =>
      m.messages.some((p) => p.type === 'poll' && p.counts[0]! + p.counts[1]! === viewers.length);
    for (const c of everyone) await c.next('batch', total);
    for (const c of everyone) {
      // The leading frame (the first vote) and at most one more: not one per vote.
      expect(c.all('batch').length).toBeLessThanOrEqual(2);
      expect(c.all('poll')).toHaveLength(1);
    }
    host.send({ type: 'poll.close', pollId });
    for (const c of everyone)
      expect(await c.next('poll', (p) => p.closed)).toMatchObject({ counts: [2, 2], closed: true });
    await closeAll(everyone);
  });

  it('stores one vote per participant: of two sockets voting at once, one is acknowledged (stored first), the other refused', async () => {
    const { event, host, viewers, everyone } = await crowd(['polls']);
    host.send({ type: 'poll.create', question: 'Once?', options: ['yes', 'no'] });
    const { pollId } = await host.next('poll');
    const participantId = viewers[0]!.all('welcome')[0]!.identity.participantId;
    const twin = await LiveClient.join(
      server,
      await tokenFor(server, event.id, { role: 'viewer', anonymous: true, participantId }),
    );
    viewers[0]!.send({ type: 'poll.vote', pollId, option: 0 });
    twin.send({ type: 'poll.vote', pollId, option: 1 });
    // Each socket's answer: its vote acknowledged (the option) or refused (the error's code).
    const outcome = (c: LiveClient) =>
      eventually(
        async () => c.messages.find((m) => m.type === 'poll.voted' || m.type === 'error'),
        Boolean,
      ).then((m) => (m!.type === 'poll.voted' ? m!.option : m!.type === 'error' ? m!.code : null));
    const outcomes = await Promise.all([outcome(viewers[0]!), outcome(twin)]);
    expect(outcomes.filter((o) => o === 'already_voted')).toHaveLength(1);
    const acked = outcomes.find((o) => typeof o === 'number');
    const stored = await withDb(databaseUrl, (db) =>
      db.query('select voter_key, option from live_poll_vote where poll_id = $1', [pollId]),
    );
    expect(stored.rows).toEqual([{ voter_key: participantId, option: acked }]);
    await closeAll([twin, ...everyone]);
  });

  it('counts reactions per emoji over the interval; each sender sees its own at once; the totals are kept', async () => {
    const { event, host, viewers, everyone } = await crowd(['reactions']);
    for (const v of viewers) for (const emoji of ['👏', '👏', '🎉']) v.send({ type: 'reaction.send', emoji });
    for (const v of viewers) {
      await v.next('reaction', (r) => r.emoji === '🎉');
      expect(v.all('reaction')).toHaveLength(3);
    }
    clock.advance(intervalMs);
    const counted = (c: LiveClient, emoji: string) =>
      batched(c)
        .flatMap((m) => (m.type === 'reactions' ? m.reactions : []))
        .filter((r) => r.emoji === emoji)
        .reduce((n, r) => n + r.count, 0);
    for (const c of everyone) {
      await c.next(
        'batch',
        () => counted(c, '👏') === 2 * viewers.length && counted(c, '🎉') === viewers.length,
      );
      expect(c.all('batch').length).toBeLessThanOrEqual(2);
    }
    expect(host.all('reaction')).toHaveLength(0);
    const totals = await withDb(databaseUrl, (db) =>
      db.query('select emoji, count::int from live_reaction_total where event_id = $1', [event.id]),
    );
    expect(Object.fromEntries(totals.rows.map((r) => [r.emoji, r.count]))).toEqual({
      '👏': 2 * viewers.length,
      '🎉': viewers.length,
    });
    await closeAll(everyone);
  });

  it('gives viewers a fair sample of a busy interval’s chat, the host every line, sends the host’s own at once, and logs every line', async () => {
    const { event, host, viewers, everyone } = await crowd(['chat']);
    const sent = viewers.flatMap((_, i) => [`line ${i}a`, `line ${i}b`]);
    for (const [i, v] of viewers.entries())
      for (const text of [`line ${i}a`, `line ${i}b`]) v.send({ type: 'chat.send', text });
    // The sender sees its own lines at once.
    for (const [i, v] of viewers.entries())
      expect((await v.next('chat.message', (m) => m.text === `line ${i}b`)).id).toBeTruthy();
    clock.advance(intervalMs);
    const lines = (c: LiveClient) => batched(c).filter((m) => m.type === 'chat.message');
    const skipped = (c: LiveClient) => c.all('batch').reduce((n, b) => n + b.chatSkipped, 0);
    await host.next('batch', () => lines(host).length === sent.length);
    expect(skipped(host)).toBe(0);
    for (const v of viewers) {
      await v.next('batch', () => lines(v).length + skipped(v) === sent.length);
      // At most two frames of at most `chatCap` lines: the other lines were left out of the sample.
      for (const b of v.all('batch'))
        expect(b.messages.filter((m) => m.type === 'chat.message').length).toBeLessThanOrEqual(chatCap);
      expect(skipped(v)).toBeGreaterThanOrEqual(sent.length - 2 * chatCap);
    }
    const logged = await withDb(databaseUrl, (db) =>
      db.query('select text from live_chat_message where event_id = $1 order by text', [event.id]),
    );
    expect(logged.rows.map((r) => r.text)).toEqual([...sent].sort());
    // The host's line is the event's voice: to everyone at once, whatever the audience.
    host.send({ type: 'chat.send', text: 'from the host' });
    for (const c of everyone) expect(await c.next('chat.message')).toMatchObject({ text: 'from the host' });
    await closeAll(everyone);
  });

  it('replays a batch frame to a viewer resuming after a deletion without the deleted line', async () => {
    const { event, host, viewers, everyone } = await crowd(['chat']);
    const token = await tokenFor(server, event.id, { role: 'viewer', anonymous: true });
    const away = await LiveClient.join(server, token);
    const welcome = away.all('welcome')[0]!;
    const author = viewers[0]!;
    author.send({ type: 'chat.send', text: 'keep me' });
    author.send({ type: 'chat.send', text: 'delete me' });
    const line = await author.next('chat.message', (m) => m.text === 'delete me');
    clock.advance(intervalMs);
    const carries = (c: LiveClient, text: string) =>
      batched(c).some((m) => m.type === 'chat.message' && m.text === text);
    await away.next('batch', () => carries(away, 'delete me'));
    host.send({ type: 'chat.delete', messageId: line.id! });
    await away.next('chat.deleted');
    await away.close();
    const back = await LiveClient.join(server, token, {
      resume: welcome.resume.secret,
      after: String(welcome.lastSeq),
    });
    expect(await back.next('chat.deleted')).toMatchObject({ messageId: line.id });
    expect(carries(back, 'keep me')).toBe(true);
    expect(JSON.stringify(back.messages)).not.toContain('delete me');
    await closeAll([back, ...everyone]);
  });

  it('batches new questions and vote tallies, acknowledges each vote at once, and sends an answer at once', async () => {
    const { event, host, viewers, everyone } = await crowd(['qa']);
    viewers[0]!.send({ type: 'question.create', text: 'When is the break?' });
    const created = await host.next('batch', (b) => b.messages.some((m) => m.type === 'question.created'));
    const question = created.messages.find((m) => m.type === 'question.created')!;
    const questionId = question.type === 'question.created' ? question.question.id : '';
    for (const v of viewers) v.send({ type: 'question.vote', questionId });
    for (const v of viewers) expect(await v.next('question.voted')).toMatchObject({ questionId });
    clock.advance(intervalMs);
    const tally = (b: Extract<LiveServerMessage, { type: 'batch' }>) =>
      b.messages.some((m) => m.type === 'question.updated' && m.votes === viewers.length);
    for (const c of everyone) await c.next('batch', tally);
    for (const c of everyone) expect(c.all('question.updated')).toHaveLength(0);
    host.send({ type: 'question.answer', questionId });
    for (const c of everyone)
      expect(await c.next('question.updated')).toMatchObject({
        questionId,
        votes: viewers.length,
        status: 'answered',
      });
    expect(await recorded(databaseUrl, event.id, 'question.created')).toHaveLength(1);
    await closeAll(everyone);
  });

  it('is handed on by the SDK as the typed messages in each frame, own chat lines once, and replayed on a resume', async () => {
    const { event, host, viewers, everyone } = await crowd(['polls', 'chat']);
    const token = await tokenFor(server, event.id, { role: 'viewer', anonymous: true });
    const sdk = await LiveConnection.open(`${server.url.replace('http', 'ws')}/v1/live?token=${token}`, {
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    const seen: LiveServerMessage[] = [];
    sdk.on('message', (m) => seen.push(m));
    const away = viewers[0]!;
    const welcome = away.all('welcome')[0]!;
    const after = Math.max(welcome.lastSeq, ...away.messages.map((m) => m.seq ?? 0));
    away.ws.terminate();
    await away.closed;
    host.send({ type: 'poll.create', question: 'Tea or coffee?', options: ['tea', 'coffee'] });
    const { pollId } = await host.next('poll');
    for (const v of viewers.slice(1)) v.send({ type: 'poll.vote', pollId, option: 1 });
    for (const v of viewers.slice(1)) await v.next('poll.voted');
    const echoed = sdk.next('chat.message', { match: (m) => m.text === 'from the sdk' });
    sdk.send({ type: 'chat.send', text: 'from the sdk' });
    await echoed;
    const votes = viewers.length - 1;
    const final = sdk.next('poll', { match: (p) => p.counts[1] === votes });
    const ownLineBatched = sdk.next('batch', {
      match: (b) => b.messages.some((m) => m.type === 'chat.message' && m.text === 'from the sdk'),
    });
    clock.advance(intervalMs);
    expect((await final).counts).toEqual([0, votes]);
    await ownLineBatched;
    expect(seen.filter((m) => m.type === 'chat.message' && m.text === 'from the sdk')).toHaveLength(1);
    expect(seen.some((m) => m.type === 'batch')).toBe(false);
    // The dropped viewer resumes: the frames it missed are replayed with their seq.
    const back = await LiveClient.join(
      server,
      await tokenFor(server, event.id, {
        role: 'viewer',
        anonymous: true,
        participantId: welcome.identity.participantId,
      }),
      {
        resume: welcome.resume.secret,
        after: String(after),
      },
    );
    expect(back.all('welcome')[0]!.resumed).toMatchObject({ after });
    await back.next('batch', (b) => b.messages.some((m) => m.type === 'poll' && m.counts[1] === votes));
    await sdk.close();
    await closeAll([back, ...everyone.filter((c) => c !== away)]);
  });
});
