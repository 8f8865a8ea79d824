import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repeatedRaceBudgetMs, waitUntil } from './support/budgets';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { useTestServer } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';
import { Receiver } from './support/receiver';
import type { TestServer } from './support/server';
import { workspaceWithEndpointAt } from './support/webhook-endpoints';
import { fastWebhookEnv } from './support/webhook-server';

/**
 * Q&A at a crowd: every viewer of a live broadcast asks one question and votes on another's, all at
 * once. Each question is stored once with one question.created webhook, each vote counts once, and
 * every viewer's last tally per question ends equal to the stored count.
 */
const viewers = 150;

let t: TestServer;
let rx: Receiver;
// Registered before the server's hooks: the receiver starts before the server and closes after it.
beforeAll(async () => {
  rx = await Receiver.start();
});
afterAll(() => rx?.close());
useTestServer({ ...fastWebhookEnv, LOG_LEVEL: 'warn' }, (started) => {
  t = started;
});

describe('live Q&A at scale', () => {
  it(
    'stores every question and vote exactly once and converges every viewer on the stored tallies',
    async () => {
      const { gc } = await workspaceWithEndpointAt(t, rx, 'qa', ['question.created']);
      const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['qa'] }], {
        visibility: 'public',
        allowAnonymousQuestions: true,
        allowAnonymousVoting: true,
      });
      const crowd = await Promise.all(
        Array.from({ length: viewers }, async () =>
          LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'viewer', anonymous: true })),
        ),
      );

      for (const [i, c] of crowd.entries()) c.send({ type: 'question.create', text: `Question ${i}` });
      const idOf = new Map<string, string>();
      await waitUntil(() => {
        for (const m of crowd[0]!.all('question.created')) idOf.set(m.question.text, m.question.id);
        return idOf.size === viewers;
      }, 'every question broadcast');

      // Viewer i votes on viewer i+1's question: one vote per question.
      for (const [i, c] of crowd.entries()) {
        c.send({ type: 'question.vote', questionId: idOf.get(`Question ${(i + 1) % viewers}`) });
      }
      const stored = () => gc.questions.list(event.id).collect();
      await waitUntil(async () => (await stored()).every((q) => q.votes === 1), 'every vote stored');

      const questions = await stored();
      expect(questions).toHaveLength(viewers);
      expect(new Set(questions.map((q) => q.text))).toEqual(new Set(idOf.keys()));
      expect(new Set(questions.map((q) => q.id))).toEqual(new Set(idOf.values()));
      expect(questions.reduce((sum, q) => sum + q.votes, 0)).toBe(viewers);

      // Asked at once, written in groups: each question with its outbox row, fewer commits than
      // askers (rows written by one transaction share its xmin).
      const commits = await withDb(t.databaseUrl, async (db) => {
        const q = await db.query<{ tx: string }>(
          'select xmin::text as tx from question where event_id = $1',
          [event.id],
        );
        const o = await db.query<{ tx: string }>(
          `select xmin::text as tx from domain_event where event_id = $1 and type = 'question.created'`,
          [event.id],
        );
        return { questions: new Set(q.rows.map((r) => r.tx)), outbox: new Set(o.rows.map((r) => r.tx)) };
      });
      expect(commits.outbox).toEqual(commits.questions);
      expect(commits.questions.size).toBeLessThan(viewers);

      const storedVotes = new Map(questions.map((q) => [q.id, q.votes]));
      const lastTally = (c: LiveClient) => {
        const tally = new Map<string, number>();
        for (const m of c.all('question.updated')) tally.set(m.questionId, m.votes);
        return tally;
      };
      await waitUntil(
        () => crowd.every((c) => [...storedVotes].every(([id, votes]) => lastTally(c).get(id) === votes)),
        'every viewer converged on the stored tallies',
      );
      for (const c of crowd) expect(c.all('question.created')).toHaveLength(viewers);

      const deliveries = () =>
        rx.to('qa').map((r) => JSON.parse(r.body) as { id: string; questionId: string });
      await waitUntil(
        () => new Set(deliveries().map((d) => d.questionId)).size === viewers,
        'question.created webhooks',
      );
      const delivered = deliveries();
      expect(new Set(delivered.map((d) => d.id)).size).toBe(viewers);
      expect(new Set(delivered.map((d) => d.questionId))).toEqual(new Set(idOf.values()));

      await Promise.all(crowd.map((c) => c.close()));
    },
    repeatedRaceBudgetMs,
  );
});
