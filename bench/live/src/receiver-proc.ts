// The webhook receiver, in its own process so the viewers' event loop does not slow it (or it them):
// answers 200 at once and counts webhooks by type, delivery id, participant and question.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Tally {
  requests: number;
  ids: Set<string>;
  /** Anonymous participant → the distinct delivery ids naming them. */
  participants: Map<string, Set<string>>;
  /** Questions named (question webhooks). */
  questions: Set<string>;
  lastAt: number;
}
const tallies = new Map<string, Tally>();
const tallyOf = (type: string) => {
  const known = tallies.get(type);
  if (known) return known;
  const t: Tally = { requests: 0, ids: new Set(), participants: new Map(), questions: new Set(), lastAt: 0 };
  tallies.set(type, t);
  return t;
};

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    res.writeHead(200, { 'content-length': '2' }).end('ok');
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        type?: string;
        participantId?: string;
        questionId?: string;
      };
      const t = tallyOf(String(body.type));
      t.requests++;
      const id = String(req.headers['x-gc-event-id']);
      t.ids.add(id);
      if (body.participantId?.startsWith('anon:')) {
        const ids = t.participants.get(body.participantId) ?? new Set<string>();
        ids.add(id);
        t.participants.set(body.participantId, ids);
      }
      if (body.questionId) t.questions.add(body.questionId);
      t.lastAt = Date.now();
    } catch {
      tallyOf('unparsable').requests++;
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` });
});

/**
 * `{ count: type }` → requests, distinct delivery ids, distinct anonymous participants, distinct
 * questions, last receipt; with `perViewer: true` also each anonymous participant's number of
 * distinct deliveries, with `questionIds: true` the questions named.
 */
process.on(
  'message',
  (m: { count?: string; reset?: boolean; perViewer?: boolean; questionIds?: boolean }) => {
    if (m.reset) tallies.clear();
    const t = tallyOf(m.count ?? '');
    const perViewer = m.perViewer
      ? Object.fromEntries([...t.participants].map(([participant, ids]) => [participant, ids.size]))
      : undefined;
    process.send?.({
      answer: {
        requests: t.requests,
        distinctIds: t.ids.size,
        viewers: t.participants.size,
        questions: t.questions.size,
        lastAt: t.lastAt,
        perViewer,
        questionIds: m.questionIds ? [...t.questions] : undefined,
      },
    });
  },
);
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
