// Quickstart: sign up, mint an API key, receive signed webhooks, and run an event through its lifecycle.
// Needs a running API: GATHERCAST_URL (run-all.mjs starts one for CI).
//
//   GATHERCAST_URL=http://localhost:3000 node --import tsx examples/quickstart.ts
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, GathercastError, type WebhookEvent } from '@gathercast/sdk';
import { verify } from '@gathercast/webhook-verifier';

const baseUrl = process.env.GATHERCAST_URL ?? 'http://localhost:3000';

// 1. A person signs up (the dashboard's way) and mints a server-side API key.
const person = createClient({ baseUrl });
const account = await person.accounts.signup({
  email: `founder-${randomUUID()}@example.test`,
  password: 'correct horse battery',
  name: 'Founder',
});
const workspace = account.workspaces[0]!;
const dashboard = createClient({ baseUrl, sessionToken: account.sessionToken });
const key = await dashboard.apiKeys.create(workspace.id, { name: 'quickstart' });
console.log(`signed up; workspace ${workspace.slug}; API key ${key.secret.slice(0, 8)}… (shown once)`);

// 2. The backend registers a webhook endpoint and verifies every delivery against the raw body.
const gc = createClient({ baseUrl, apiKey: key.secret });
const received: WebhookEvent[] = [];
let secret = '';
const receiver = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    received.push(await verify(Buffer.concat(chunks), req.headers, secret));
    res.writeHead(204).end();
  } catch (err) {
    console.error('rejected a delivery:', (err as Error).message);
    res.writeHead(400).end();
  }
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const endpoint = await gc.webhooks.create({
  url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
  eventTypes: ['event.published', 'event.started', 'event.ended'],
});
secret = endpoint.secret;

// 3. An event with a broadcast then breakouts, through its lifecycle.
const event = await gc.events.create({
  type: 'webinar',
  title: 'Quickstart launch',
  visibility: 'public',
  phases: [
    { modality: 'broadcast' },
    { modality: 'breakout', config: { roomSize: 4, durationSeconds: 600, extendable: true } },
  ],
});
await gc.events.publish(event.id);
const live = await gc.events.start(event.id);
console.log(`live; active phase ${live.phases.find((p) => p.id === live.activePhaseId)?.modality}`);
await gc.events.advance(event.id, { phaseId: live.activePhaseId! });
const ended = await gc.events.end(event.id);
console.log(`event ${ended.status}`);

// 4. Errors are typed: branch on code.
try {
  await gc.events.start(event.id);
} catch (err) {
  if (err instanceof GathercastError) console.log(`starting an ended event: ${err.status} ${err.code}`);
}

// 5. Deliveries arrive within milliseconds of each commit.
const deadline = Date.now() + 15_000;
while (received.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
receiver.close();
const types = received.map((e) => e.type).sort();
console.log(`verified webhooks: ${types.join(', ')}`);
if (types.join() !== 'event.ended,event.published,event.started') {
  console.error('expected event.published, event.started and event.ended');
  process.exit(1);
}
