// Embed Gathercast in your product (docs/embed.md): your backend, with an API key, puts a host and
// three of your users on stage, lets an anonymous viewer in, lists the live room and removes the viewer.
// Needs a running API: GATHERCAST_URL (run-all.mjs starts one for CI) and GATHERCAST_API_KEY (without
// it, the program signs up a throwaway account to get one).
//
//   GATHERCAST_URL=http://localhost:3000 GATHERCAST_API_KEY=gck_... node --import tsx examples/embed.ts
import { randomUUID } from 'node:crypto';
import { createClient, LiveConnection, type WebSocketConstructor } from '@gathercast/sdk';
// Node 22+, browsers and edge runtimes have a global WebSocket; on Node 20 the ws package stands in.
import { WebSocket } from 'ws';

const baseUrl = process.env.GATHERCAST_URL ?? 'http://localhost:3000';
const connect = (url: string) =>
  LiveConnection.open(url, { WebSocket: WebSocket as unknown as WebSocketConstructor });

async function apiKey(): Promise<string> {
  if (process.env.GATHERCAST_API_KEY) return process.env.GATHERCAST_API_KEY;
  const signup = await createClient({ baseUrl }).accounts.signup({
    email: `embed-${randomUUID()}@example.test`,
    password: 'correct horse battery',
    name: 'Embedder',
  });
  const owner = createClient({ baseUrl, sessionToken: signup.sessionToken });
  return (await owner.apiKeys.create(signup.workspaces[0]!.id, { name: 'embed' })).secret;
}

// 1. Your backend: an API key, nothing else. A public broadcast with chat, live.
const backend = createClient({ baseUrl, apiKey: await apiKey() });
const event = await backend.events.create({
  type: 'webinar',
  title: 'Product launch',
  visibility: 'public',
  phases: [{ modality: 'broadcast', featureSet: ['chat'] }],
});
await backend.events.publish(event.id);
await backend.events.start(event.id);

// 2. The host: a token minted for your user (upserted by your id for them, with a name).
const hostToken = await backend.live.tokens.create(event.id, {
  user: { externalSub: 'your-user-1', name: 'Ada (host)' },
  role: 'host',
});
const host = await connect(hostToken.url);
console.log(`host on stage as ${host.welcome.identity.role}`);

// 3. Three of your users on stage as speakers, each through a personal join link your frontend opens
//    without credentials (a GET answers a fresh token each time).
const speakers = [];
for (const [i, name] of ['Grace', 'Linus', 'Barbara'].entries()) {
  const link = await backend.live.joinLinks.create(event.id, {
    user: { externalSub: `your-user-${i + 2}`, name },
    role: 'speaker',
  });
  const opened = (await (await fetch(link.joinUrl)).json()) as { url: string };
  speakers.push(await connect(opened.url));
}
console.log(
  `speakers: ${speakers.map((s) => `${s.welcome.identity.name} (${s.welcome.identity.role})`).join(', ')}`,
);

// 4. A viewer from the public, signed out; they spam the chat.
const viewerToken = await createClient({ baseUrl }).gateway.token({ eventId: event.id });
const viewer = await connect(viewerToken.url);
const viewerId = viewer.welcome.identity.participantId;
const spam = host.next('chat.message');
viewer.send({ type: 'chat.send', text: 'Buy cheap followers!' });
console.log(`host sees: "${(await spam).text}"`);

// 5. The backend lists the live room (every server process counted) and removes the viewer.
let present: string[] = [];
const deadline = Date.now() + 15_000;
while (present.length < 5 && Date.now() < deadline) {
  const page = await backend.live.participants.list(event.id);
  present = page.participants.map((p) => `${p.name ?? 'anonymous'}:${p.role}`);
}
console.log(`in the room: ${present.join(', ')}`);
const gone = viewer.closedPromise();
await backend.live.participants.remove(event.id, viewerId, { reason: 'Spam' });
const closed = await gone;
console.log(`viewer removed: close code ${closed.code} (${closed.reason})`);

for (const connection of [host, ...speakers]) await connection.close();
await backend.events.end(event.id);
if (
  host.welcome.identity.role !== 'host' ||
  speakers.some((s) => s.welcome.identity.role !== 'speaker') ||
  present.length !== 5 ||
  closed.code !== 4012
) {
  console.error('expected a host, three speakers and a viewer in the room, and the viewer removed (4012)');
  process.exit(1);
}
