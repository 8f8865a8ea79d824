// Live Q&A: a host and an anonymous viewer on the live gateway of a public broadcast; the viewer's
// question reaches the host over the socket, the backend by a verified question.created webhook, and
// the questions list with its votes.
// Needs a running API: GATHERCAST_URL (run-all.mjs starts one for CI).
//
//   GATHERCAST_URL=http://localhost:3000 node --import tsx examples/live-qa.ts
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, LiveConnection, type WebhookEvent, type WebSocketConstructor } from '@gathercast/sdk';
import { verify } from '@gathercast/webhook-verifier';
// Node 22+, browsers and edge runtimes have a global WebSocket; on Node 20 the ws package stands in.
import { WebSocket } from 'ws';

const baseUrl = process.env.GATHERCAST_URL ?? 'http://localhost:3000';
const connect = (url: string) =>
  LiveConnection.open(url, { WebSocket: WebSocket as unknown as WebSocketConstructor });

// 1. A host signs up; the backend (API key) listens for question.created.
const signup = await createClient({ baseUrl }).accounts.signup({
  email: `host-${randomUUID()}@example.test`,
  password: 'correct horse battery',
  name: 'Hana Host',
});
const host = createClient({ baseUrl, sessionToken: signup.sessionToken });
const key = await host.apiKeys.create(signup.workspaces[0]!.id, { name: 'live-qa' });
const backend = createClient({ baseUrl, apiKey: key.secret });

const received: WebhookEvent[] = [];
let secret = '';
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    received.push(await verify(Buffer.concat(chunks), req.headers, secret));
    res.writeHead(204).end();
  } catch {
    res.writeHead(400).end();
  }
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
secret = (
  await backend.webhooks.create({
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    eventTypes: ['question.created'],
  })
).secret;

// 2. A public broadcast with Q&A, live (created with the host's session: the host is its host).
const event = await host.events.create({
  type: 'town-hall',
  title: 'Ask me anything',
  visibility: 'public',
  allowAnonymousQuestions: true,
  allowAnonymousVoting: true,
  phases: [{ modality: 'broadcast', featureSet: ['qa', 'reactions'] }],
});
await host.events.publish(event.id);
await host.events.start(event.id);
const { playbackUrl } = await host.broadcast.start(event.id);

// 3. Both join the live gateway: the host with their session, the viewer signed out.
const hostLive = await connect((await host.gateway.token({ eventId: event.id })).url);
const viewerToken = await createClient({ baseUrl }).gateway.token({ eventId: event.id });
const viewerLive = await connect(viewerToken.url);
console.log(
  `host joined as ${hostLive.welcome.identity.role}, publishing: ${hostLive.welcome.media.canPublish}`,
);
console.log(
  `viewer joined as ${viewerLive.welcome.identity.role}; plays ${viewerLive.welcome.media.playbackUrl === playbackUrl ? 'the broadcast playlist' : 'something else'}`,
);

// 4. The viewer asks; the host sees it live and votes it up.
const seenByHost = hostLive.next('question.created');
viewerLive.send({ type: 'question.create', text: 'Will the recording be shared?' });
const { question } = await seenByHost;
console.log(`host sees: "${question.text}"`);
const voted = viewerLive.next('question.updated');
hostLive.send({ type: 'question.vote', questionId: question.id });
console.log(`votes now: ${(await voted).votes}`);

// 5. The backend got a verified webhook; the API lists the question with its tally.
const deadline = Date.now() + 15_000;
while (received.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
const { questions } = await backend.questions.list(event.id);
console.log(`webhook: ${received.map((e) => e.type).join(', ')}; listed: ${questions.length} question(s)`);

await hostLive.close();
await viewerLive.close();
receiver.close();
await host.events.end(event.id);
if (
  received[0]?.type !== 'question.created' ||
  questions.length !== 1 ||
  question.text !== 'Will the recording be shared?'
) {
  console.error('expected one question, seen live, delivered by webhook and listed');
  process.exit(1);
}
