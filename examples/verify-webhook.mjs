// A webhook receiver on plain node:http, and one signed delivery sent to it.
// Run: pnpm --filter @gathercast/webhook-verifier build && node examples/verify-webhook.mjs
//
// The verifier is imported by its package name, exactly as an application would:
//   npm install @gathercast/webhook-verifier
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { sign, verify, WebhookVerificationError } from '@gathercast/webhook-verifier';

const secret = process.env.GATHERCAST_WEBHOOK_SECRET ?? 'whsec_test_0123456789abcdef';

const server = createServer(async (req, res) => {
  // Collect the raw bytes: verification needs the body exactly as sent, before any JSON parsing.
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    const event = await verify(Buffer.concat(chunks), req.headers, secret);
    console.log(`receiver: verified ${event.type} ${event.id} (event ${event.eventId})`);
    res.writeHead(204).end();
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    // 4xx: Gathercast does not retry it.
    console.log(`receiver: refused (${error.code}): ${error.message}`);
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: error.code }));
  }
});

server.listen(0, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${server.address().port}/webhooks`;
  const body = JSON.stringify({
    id: randomUUID(),
    type: 'event.started',
    workspaceId: 'ws_demo',
    eventId: 'evt_demo',
    occurredAt: new Date().toISOString(),
  });
  const headers = {
    'content-type': 'application/json',
    'x-gc-event-id': JSON.parse(body).id,
    'x-gc-event-type': 'event.started',
    'x-gc-signature': await sign({ secret, payload: body }),
  };
  const good = await fetch(url, { method: 'POST', body, headers });
  console.log(`sender: genuine delivery answered ${good.status}`);
  const tampered = await fetch(url, { method: 'POST', body: body.replace('started', 'ended'), headers });
  console.log(`sender: tampered delivery answered ${tampered.status}`);
  server.close();
});
